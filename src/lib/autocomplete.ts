// Autofill hints for fields that ask for who the respondent is (WCAG 1.3.5): guessed from the
// field's id, so a name, phone or city field fills in from the browser. Never "off".
const HINTS: [RegExp, string][] = [
  [/^(first|given)_?name$|^forename$|^prenom$|^vorname$|^nombre$/, "given-name"],
  [/^(last|family)_?name$|^surname$/, "family-name"],
  [/^(full_?)?name$|^your_name$|^contact_name$/, "name"],
  [/^nick_?name$/, "nickname"],
  [/e_?mail/, "email"],
  [/phone|^tel$|^telephone$|^mobile$/, "tel"],
  [/^(company|organi[sz]ation|employer)(_name)?$/, "organization"],
  [/^(job_)?title$|^role$|^position$/, "organization-title"],
  [/^(street_)?address(_line_?1)?$|^street$/, "street-address"],
  [/^city$|^town$/, "address-level2"],
  [/^(zip|postal|post)_?code$|^zip$/, "postal-code"],
  [/^country$/, "country-name"],
  [/^website$|^url$|^homepage$/, "url"],
  [/^birth_?day$|^date_of_birth$|^dob$/, "bday"],
];

export function autocompleteFor(id: string, type: string): string | undefined {
  if (type === "email") return "email";
  if (type !== "text" && type !== "date") return undefined;
  const hint = HINTS.find(([re]) => re.test(id))?.[1];
  if (type === "date") return hint === "bday" ? hint : undefined;
  return hint;
}

/** The input type that brings the right keyboard for a hint. */
export const inputTypeFor = (hint: string | undefined, type: string): string =>
  hint === "tel" ? "tel" : type;

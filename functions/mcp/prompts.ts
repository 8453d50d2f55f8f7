/** Prompts the server offers: a ready-made way to ask for an analysis (SPEC §14). */
export const PROMPTS = [
  {
    name: "analyze_responses",
    title: "Analyse a form's responses",
    description: "Summarise what respondents said in one form: figures, themes and next steps.",
    arguments: [
      { name: "slug", description: "The form's slug", required: true },
      { name: "period", description: "7d, 30d, 90d or all (default all)", required: false },
    ],
  },
];

export function analyzeResponsesPrompt(args: Record<string, string | undefined>) {
  const slug = args.slug ?? "";
  const period = args.period ?? "all";
  const text = [
    `Analyse the responses of the Formdown form "${slug}" over period ${period}.`,
    `1. Call get_response_report {"slug": "${slug}", "period": "${period}", "text_limit": 100}: summary holds the figures (NPS, shares, means), markdown the same as a report.`,
    "2. If a field's summary says more > 0, call it again with that field and a larger text_limit, or page with list_responses.",
    "3. Answer with: the headline numbers, the main themes of the text answers (quote a few), anything surprising, and two or three concrete next steps.",
  ].join("\n");
  return {
    description: `Analyse the responses of ${slug}`,
    messages: [{ role: "user" as const, content: { type: "text" as const, text } }],
  };
}

import { z } from "zod";
import { shareFieldProperties } from "./field-schema-defs.ts";
import { formSchema } from "./schema.ts";

/** Where agents find the complete form schema (MCP resource); also GET /api/form.schema.json. */
export const FORM_SCHEMA_URI = "formdown://schema/form";

type Json = Record<string, unknown>;

/**
 * The complete form definition as JSON Schema 2020-12, generated from the one zod schema; the
 * field types' common properties are stated once, in `$defs` (see field-schema-defs.ts).
 */
export function formJsonSchema(): Json {
  const json = z.toJSONSchema(formSchema, { io: "input", unrepresentable: "any" }) as Json;
  const items = ((json.properties as Json | undefined)?.fields as Json | undefined)?.items as
    | { oneOf?: Json[] }
    | undefined;
  if (items?.oneOf) {
    const { variants, defs } = shareFieldProperties(items.oneOf);
    items.oneOf = variants;
    json.$defs = { ...(json.$defs as Json | undefined), ...defs };
  }
  shareEnding(json);
  shareLogic(json);
  return { ...json, $id: FORM_SCHEMA_URI, title: "Formdown form definition" };
}

/**
 * The ending's properties stated once (`$defs.ending`): `ending`, the quiz's pass and fail
 * endings and each of `endings` refer to them, closed as before by `unevaluatedProperties`.
 */
function shareEnding(json: Json): void {
  const props = json.properties as Record<string, Json>;
  const quiz = (props.quiz as { properties: Record<string, Json> }).properties;
  const { description: _d, additionalProperties: _a, ...ending } = props.ending!;
  const defs = json.$defs as Json;
  defs.ending = ending;
  const ref = (own: Json) => ({
    $ref: "#/$defs/ending",
    ...(own.description ? { description: own.description } : {}),
    unevaluatedProperties: false,
  });
  props.ending = ref(props.ending!);
  quiz.pass_ending = ref(quiz.pass_ending!);
  quiz.fail_ending = ref(quiz.fail_ending!);
  const list = props.endings as { items: Json };
  const item = list.items as { properties: Record<string, Json>; required: string[] };
  list.items = {
    ...ref({}),
    properties: { id: item.properties.id, show_if: item.properties.show_if },
    required: item.required,
  };
}

/**
 * The logic keys kept short: a jump's target stated once (`$defs.goto`), the condition named,
 * and the logic tests as their shape in words (the zod schema checks them when a file is read).
 */
function shareLogic(json: Json): void {
  const defs = json.$defs as Record<string, Json>;
  const text = JSON.stringify(json);
  const field = (defs.field as { properties: Record<string, Json> }).properties;
  const { description: _d, ...goto } = field.goto!;
  const gotoText = JSON.stringify(goto).slice(1, -1);
  let out = text.replaceAll(gotoText, '"$ref":"#/$defs/goto"');
  const condition = Object.entries(defs).find(([, d]) =>
    JSON.stringify(d).includes('"answered","unanswered"'),
  )?.[0];
  if (condition) out = out.replaceAll(`"#/$defs/${condition}"`, '"#/$defs/condition"');
  const shared = JSON.parse(out) as Json;
  const sharedDefs = shared.$defs as Record<string, Json>;
  if (condition) {
    sharedDefs.condition = sharedDefs[condition]!;
    delete sharedDefs[condition];
  }
  sharedDefs.goto = goto;
  (shared.properties as Record<string, Json>).tests = {
    description:
      "Logic tests run by formdown test: [{name, answers: {id: answer}, hidden?: {name: text}, expect: {ending?, shown?: [ids], hidden_fields?: [ids], variables?: {id: value}, valid?: boolean}}]",
    type: "array",
    items: { type: "object" },
  };
  for (const key of Object.keys(json)) delete json[key];
  Object.assign(json, shared);
}

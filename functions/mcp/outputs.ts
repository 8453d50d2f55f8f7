import { z } from "zod";

/** Output shapes several tools share; one name per thing across every tool (SPEC §14). */
const str = z.string();
const obj = z.record(z.string(), z.unknown());

/** What every answer about a live form carries: how to reach it and how respondents submit. */
export const formLinks = {
  form_id: str,
  slug: str,
  status: str,
  public_url: str,
  short_url: str,
  submit_url: str,
  humanness: z.boolean(),
};

/** get_form, update_form, add_field: the links above (status and short_url too, undeclared), the definition, counts. */
export const formDetail = z.looseObject({
  form_id: str,
  slug: str,
  title: str,
  public_url: str,
  submit_url: str,
  humanness: z.boolean(),
  config: obj,
  stats: obj,
});

/**
 * update_form, add_field: get_form's answer, as their descriptions say. Its whole shape is listed
 * once, under get_form; each of them repeating it cost 390 bytes of tools/list (SPEC §14).
 */
export const formChanged = z.looseObject({ form_id: str, slug: str, config: obj });

export const responseRecord = z.looseObject({
  id: str,
  submitted_at: str,
  payload: obj,
});

/** update_field, remove_field, move_field: short, never the whole definition (SPEC §18). */
export const fieldChange = z.object({ slug: str, version: z.number(), field: obj, plan: obj });

import { FORM_APP, REPORT_APP } from "./ui-resources.ts";

/** The tools that show a form, and those that show results, name their app (SPEC §18). */
export const FORM_UI = { ui: { resourceUri: FORM_APP } };
export const REPORT_UI = { ui: { resourceUri: REPORT_APP } };

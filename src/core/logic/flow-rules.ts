// The form's flow checked (SPEC §24): steps name pages, jumps land on a later page or an ending,
// endings have distinct ids with the one without a condition last, and every page and ending is
// on some path. Reachability is judged from the structure alone (a condition may hold or not, a
// jump without one always fires), so a page reported unreachable is never reached by any answers.
import { quote } from "../quote.ts";
import { pagesNamed, stepPages } from "./compiled.ts";
import type { Problem } from "./names.ts";

export interface FlowField {
  id?: string | undefined;
  type?: string | undefined;
  step?: unknown;
  show_if?: unknown;
  goto?: string | number | undefined;
  options?: readonly unknown[] | undefined;
}

export interface FlowForm {
  type: string;
  fields: readonly FlowField[];
  pages: readonly number[];
  steps?: readonly { id: string | number }[] | undefined;
  endings?: readonly { id: string; show_if?: unknown }[] | undefined;
  ending?: unknown;
}

const RESERVED = ["default", "pass", "fail"];

type Jump = { page: number } | { ending: string };

/** Where a goto lands from `page`, or the problem with it. */
function land(
  form: FlowForm,
  byId: Map<string, number[]>,
  to: string | number,
  page: number,
): Jump | string {
  const ending = typeof to === "string" && (form.endings ?? []).some((e) => e.id === to);
  const pages = pagesNamed(byId, to);
  if (ending && pages.length > 0) return `${quote(to)} names both a step and an ending; rename one`;
  if (ending) return { ending: to as string };
  if (pages.length === 0)
    return `${quote(to)} is not a step, a field that opens a page, or an ending of this form`;
  const later = pages.find((p) => p > page);
  if (later === undefined)
    return `jumps go forward only: ${quote(to)} is not after this field's page`;
  return { page: later };
}

const optionGoto = (o: unknown) =>
  o && typeof o === "object" ? (o as { goto?: string | number }).goto : undefined;

/** The steps, jumps and endings' problems, and pages and endings no path reaches. */
export function checkFlow(form: FlowForm, out: Problem[]): void {
  const byId = stepPages(form as never, form.pages);
  const endings = form.endings ?? [];
  const seen = new Map<string, number>();
  endings.forEach((e, k) => {
    const at = ["endings", k, "id"];
    if (seen.has(e.id))
      out.push({
        path: at,
        message: `${quote(e.id)} is already the id of endings[${seen.get(e.id)}]`,
      });
    else seen.set(e.id, k);
    if (RESERVED.includes(e.id))
      out.push({
        path: at,
        message: `${quote(e.id)} is kept for the form's own endings; name it otherwise`,
      });
    if (!e.show_if && k !== endings.length - 1)
      out.push({
        path: ["endings", k],
        message:
          "an ending without show_if is the one left when no other holds: put it last (only one)",
      });
  });
  if (form.ending !== undefined && endings.length > 0 && !endings.at(-1)!.show_if)
    out.push({
      path: ["ending"],
      message: "endings already has one without show_if; keep one of the two",
    });
  const stepSeen = new Set<string>();
  (form.steps ?? []).forEach((s, k) => {
    if (pagesNamed(byId, s.id).length === 0)
      out.push({
        path: ["steps", k, "id"],
        message: `${quote(s.id)} is not a step of this form, nor a field that opens a page`,
      });
    if (stepSeen.has(String(s.id)))
      out.push({ path: ["steps", k, "id"], message: `${quote(s.id)} is listed twice` });
    stepSeen.add(String(s.id));
  });
  // every page's ways on: [jump, certain] (certain: a jump with no condition of its own)
  const ways = new Map<number, [Jump, boolean][]>();
  const add = (page: number, jump: Jump, certain: boolean) =>
    ways.set(page, [...(ways.get(page) ?? []), [jump, certain]]);
  form.fields.forEach((f, i) => {
    const page = form.pages[i]!;
    (f.options ?? []).forEach((o, k) => {
      const to = optionGoto(o);
      if (to === undefined) return;
      const at = ["fields", i, "options", k, "goto"];
      if (f.type === "ranking") {
        out.push({ path: at, message: "a ranking's options do not jump" });
        return;
      }
      const jump = land(form, byId, to, page);
      if (typeof jump === "string") out.push({ path: at, message: jump });
      else add(page, jump, false);
    });
    if (f.goto === undefined) return;
    const jump = land(form, byId, f.goto, page);
    if (typeof jump === "string") out.push({ path: ["fields", i, "goto"], message: jump });
    else add(page, jump, f.show_if === undefined);
  });
  checkReach(form, byId, ways, out);
}

function checkReach(
  form: FlowForm,
  byId: Map<string, number[]>,
  ways: Map<number, [Jump, boolean][]>,
  out: Problem[],
) {
  const last = form.pages.length === 0 ? -1 : form.pages.at(-1)!;
  const conditional = new Set<number>();
  for (const s of form.steps ?? []) for (const p of pagesNamed(byId, s.id)) conditional.add(p);
  const visited = new Set<number>();
  const endingsReached = new Set<string>();
  let end = false;
  const arrive: number[] = [0];
  const arrived = new Set<number>();
  while (arrive.length > 0) {
    const page = arrive.pop()!;
    if (arrived.has(page)) continue;
    arrived.add(page);
    if (page > last) {
      end = true;
      continue;
    }
    // a page whose condition fails is passed by; one that holds is visited
    if (conditional.has(page)) arrive.push(page + 1);
    visited.add(page);
    let certain = false;
    for (const [jump, sure] of ways.get(page) ?? []) {
      if ("page" in jump) arrive.push(jump.page);
      else endingsReached.add(jump.ending);
      if (sure) {
        certain = true;
        break;
      }
    }
    if (!certain) arrive.push(page + 1);
  }
  const opening = (page: number) => form.pages.indexOf(page);
  for (let page = 0; page <= last; page++) {
    if (visited.has(page) || opening(page) < 0) continue;
    const i = opening(page);
    const at = form.fields[i]?.step !== undefined ? ["fields", i, "step"] : ["fields", i];
    out.push({ path: at, message: `this page is never reached: every path jumps past it` });
  }
  (form.endings ?? []).forEach((e, k) => {
    if (endingsReached.has(e.id) || end) return;
    out.push({
      path: ["endings", k],
      message: `ending ${quote(e.id)} is never reached: every path jumps to another ending`,
    });
  });
}

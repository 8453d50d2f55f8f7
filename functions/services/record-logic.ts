// What a response records beside its payload (SPEC §24), the same in every record of it: the
// REST and MCP record (responses.ts) and a webhook's body (webhooks/payload.ts). A form without
// logic records neither, and its records carry no key for them.

export function recordedLogic(r: { ending?: string | null; variables?: unknown }): {
  ending?: string;
  variables?: unknown;
} {
  return {
    ...(r.ending ? { ending: r.ending } : {}),
    ...(r.variables ? { variables: r.variables } : {}),
  };
}

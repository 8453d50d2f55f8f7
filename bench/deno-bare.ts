// The limit of bench/deno-cold.ts: a bare `Deno.serve` that answers every request with Postgres'
// `select 1`, through the same postgres.js the Deno entry uses (the bare `postgres` specifier,
// resolved from package.json and node_modules as functions/db/db.ts's import is). Nothing else is
// imported, read or checked at start. `npx deno run -A bench/deno-bare.ts` with DATABASE_URL, PORT.
import postgres from "postgres";

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { port: number; hostname: string; onListen?: (a: { port: number }) => void },
    handler: (req: Request) => Promise<Response>,
  ): unknown;
};

const sql = postgres(Deno.env.get("DATABASE_URL") ?? "", { max: 16, onnotice: () => {} });

Deno.serve(
  {
    port: Number(Deno.env.get("PORT") ?? 8000),
    hostname: "127.0.0.1",
    onListen: ({ port }) => console.log(`URL http://127.0.0.1:${port}`),
  },
  async () => Response.json((await sql`select 1 as one`)[0]),
);

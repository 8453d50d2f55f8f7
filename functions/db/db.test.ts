import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgres, preparedStatements } from "./db.ts";
import { unavailableFailure } from "./outage.ts";

describe("prepared statements", () => {
  it("are off behind a transaction pooler and when the URL says so", () => {
    expect(preparedStatements("postgres://u@db.example.com:5432/app")).toBe(true);
    expect(preparedStatements("postgres://u@pooler.supabase.com:6543/postgres")).toBe(false);
    expect(preparedStatements("postgres://u@h:5432/app?pgbouncer=true")).toBe(false);
    expect(preparedStatements("postgres://u@h:5432/app?prepare=false")).toBe(false);
    expect(preparedStatements("postgres://u@h:6543/app?prepare=true")).toBe(true);
  });
});

const url = process.env.TEST_DATABASE_URL;
describe.each(url ? [url] : [])("prepared statements on Postgres (%s)", (base) => {
  // one connection each, so the statement lands where pg_prepared_statements can see it
  const plain = openPostgres(base, 1);
  const pooled = openPostgres(`${base}${base.includes("?") ? "&" : "?"}prepare=false`, 1);
  afterAll(() => Promise.all([plain.close(), pooled.close()]));
  const kept = (db: typeof plain, text: string) =>
    db.query<{ n: number }>(
      "select count(*)::int as n from pg_prepared_statements where statement = $1",
      [text],
    );

  it("keeps a hot statement prepared, and only when asked and allowed", async () => {
    const hot = "select $1::int + 1 as hot";
    const cold = "select $1::int + 2 as cold";
    for (let i = 0; i < 3; i++) {
      expect(await plain.query(hot, [i], { prepare: true })).toEqual([{ hot: i + 1 }]);
      expect(await plain.query(cold, [i])).toEqual([{ cold: i + 2 }]);
      expect(await pooled.query(hot, [i], { prepare: true })).toEqual([{ hot: i + 1 }]);
    }
    expect(await kept(plain, hot)).toEqual([{ n: 1 }]);
    expect(await kept(plain, cold)).toEqual([{ n: 0 }]);
    expect(await kept(pooled, hot)).toEqual([{ n: 0 }]);
  });
});

describe.each(url ? [url] : [])("JIT compilation on Postgres (%s)", (base) => {
  it("is off on the service's connections and its exports', but left to a transaction pooler", async () => {
    const db = openPostgres(base, { max: 1 });
    const pooled = openPostgres(`${base}${base.includes("?") ? "&" : "?"}prepare=false`, {
      max: 1,
    });
    try {
      expect(await db.query("select current_setting('jit') as jit")).toEqual([{ jit: "off" }]);
      let shown = "";
      for await (const chunk of db.copyOut!("copy (select current_setting('jit')) to stdout"))
        shown += new TextDecoder().decode(chunk);
      expect(shown.trim()).toBe("off");
      // behind a pooler no start-up parameter is sent: the server's own setting stays
      const source = (db: typeof pooled) =>
        db.query<{ source: string }>("select source from pg_settings where name = 'jit'");
      expect(await source(db)).toEqual([{ source: "client" }]);
      expect((await source(pooled))[0]!.source).not.toBe("client");
    } finally {
      await db.close();
      await pooled.close();
    }
  });
});

describe.each(url ? [url] : [])("timeouts on Postgres (%s)", (base) => {
  const db = openPostgres(base, { max: 2, statementTimeout: 1 });
  afterAll(() => db.close());

  it("cancels a statement that runs past the statement timeout, as unavailable", async () => {
    const error = await db.query("select pg_sleep(3)").catch((e: unknown) => e);
    expect(unavailableFailure(error)?.code).toBe("unavailable");
    expect((error as { code?: string }).code).toBe("57014");
    // the pool is fine afterwards
    expect(await db.query("select 1 as one")).toEqual([{ one: 1 }]);
  });

  it("lets a COPY export run longer than the statement timeout", async () => {
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of db.copyOut!(
      "copy (select g, pg_sleep(0.6) from generate_series(1, 3) g) to stdout with (format csv)",
    ))
      text += decoder.decode(chunk);
    expect(
      text
        .trim()
        .split("\n")
        .map((l) => l.split(",")[0]),
    ).toEqual(["1", "2", "3"]);
  });

  it("frees the connection of a COPY its reader left early, with values or without", async () => {
    // more than the four connections exports have: each left one used to hold its connection
    for (let i = 0; i < 6; i++) {
      const params = i % 2 === 0 ? undefined : [`v'${i}`];
      const statement = `copy (select g, ${params ? "current_setting('formdown.copy_params')" : "'-'"}, repeat('x', 2000) from generate_series(1, 100000) g) to stdout with (format csv)`;
      let first = "";
      for await (const chunk of db.copyOut!(statement, params)) {
        first = new TextDecoder().decode(chunk).split("\n")[0]!;
        break;
      }
      expect(first.split(",").slice(0, 2)).toEqual(params ? ["1", `"[""v'${i}""]"`] : ["1", "-"]);
    }
    let lines = 0;
    for await (const chunk of db.copyOut!(
      "copy (select g from generate_series(1, 1000) g) to stdout",
    ))
      lines += new TextDecoder().decode(chunk).split("\n").length - 1;
    expect(lines).toBe(1000);
  });

  it("ends a COPY whose statement fails after it began with that error, every time, and the process lives on", async () => {
    // the error comes in the same read as the start of the COPY: its stream was destroyed before
    // anything listened, and the second such export ended the process (issue 41)
    const cases: [string, unknown[] | undefined][] = [
      [
        "copy (with p as materialized (select (current_setting('formdown.copy_params')::jsonb ->> 0)::int as v0) select (select v0 from p)) to stdout",
        [99999999999],
      ],
      ["copy (select 1 / (g - 3) from generate_series(1, 5) g) to stdout", undefined],
    ];
    for (let i = 0; i < 6; i++) {
      const [statement, params] = cases[i % 2]!;
      const error = await (async () => {
        for await (const _ of db.copyOut!(statement, params));
      })().catch((e: unknown) => e);
      expect((error as { code?: string }).code).toBe(i % 2 === 0 ? "22003" : "22012");
    }
    // and the export connections are free
    let lines = 0;
    for await (const chunk of db.copyOut!(
      "copy (select g from generate_series(1, 10) g) to stdout",
    ))
      lines += new TextDecoder().decode(chunk).split("\n").length - 1;
    expect(lines).toBe(10);
  });

  it("answers a ping, and a ping on a closed port fails at once", async () => {
    await expect(db.ping!()).resolves.toBeUndefined();
    const dead = openPostgres("postgres://postgres@127.0.0.1:1/none", { max: 1 });
    // refused, not the connect timeout's CONNECT_TIMEOUT after waiting it out
    await expect(dead.ping!()).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await dead.close();
  });
});

describe.each(url ? [url] : [])("a statement given up on behind another (%s)", (base) => {
  // one connection: the driver sends the second and third statements behind the first
  const db = openPostgres(base, { max: 1 });
  afterAll(() => db.close());

  it("leaves the statements after it their own answers", async () => {
    await db.query("select 1");
    const slow = db.query<{ v: string }>("select 'slow' as v, pg_sleep(0.4)");
    // the request it serves must be answered before the slow one is done: our deadline gives up
    const late = db
      .query<{ v: string }>("select 'late' as v", [], { answerBy: Date.now() + 100 })
      .catch((e: unknown) => e);
    const next = db.query<{ v: string }>("select 'next' as v");
    const after = db.query<{ v: string }>("select 'after' as v");
    expect((await slow)[0]!.v).toBe("slow");
    expect(unavailableFailure(await late)?.code).toBe("unavailable");
    // a request's time running out is no outage: the database is not taken for down
    await expect(db.ping!()).resolves.toBeUndefined();
    // postgres.js 3.4's cancel of a statement waiting in the pipeline drops it from its list
    // while the server still answers it: each statement behind it got the one before's rows
    expect(await next).toEqual([{ v: "next" }]);
    expect(await after).toEqual([{ v: "after" }]);
    expect(await db.query("select 'then' as v")).toEqual([{ v: "then" }]);
  });
});

describe.each(url ? [url] : [])("a statement that failed while sending its rows (%s)", (base) => {
  const db = openPostgres(base, { max: 1 });
  afterAll(() => db.close());
  // three rows, then division by zero: the error comes after rows were sent
  const failing = "select g, 1 / (4 - g) as x from generate_series(1, 10) g";

  it("leaves the next statement on its connection its own rows, at their own places", async () => {
    await db.query("select 1");
    const failed = db.query(failing).catch((e: unknown) => e);
    const behind = db.query<{ v: string }>("select 'behind' as v");
    expect(await failed).toMatchObject({ code: "22012" });
    // postgres.js 3.4 answers [ <3 empty items>, { v: 'behind' } ] here
    expect(await behind).toEqual([{ v: "behind" }]);
    await db.query(failing).catch(() => {});
    const [row] = await db.query<{ v: string }>("select 'later' as v");
    expect(row).toEqual({ v: "later" });
  });
});

/** A TCP proxy to Postgres that can hold every byte (a server that hangs mid-connect). */
async function holdingProxy(target: URL) {
  let holding = false;
  // only the server's answers, sent on as one write (so they come in one read of the socket)
  let holdingAnswers = false;
  const answers: { to: Socket; data: Buffer[] } = { to: null as unknown as Socket, data: [] };
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on("data", (d: Buffer) => {
        if (holdingAnswers && from === upstream) {
          answers.to = to;
          answers.data.push(d);
        } else if (holding) held.push(() => to.write(d));
        else to.write(d);
      });
      from.on("error", () => {});
      from.on("close", () => to.destroy());
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const proxied = new URL(target);
  proxied.hostname = "127.0.0.1";
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    hold: () => {
      holding = true;
    },
    holdAnswers: () => {
      holdingAnswers = true;
    },
    /** Sends on the first `bytes` of the answers held (all by default) as one write. */
    sendAnswers: (bytes = Number.POSITIVE_INFINITY) => {
      const all = Buffer.concat(answers.data.splice(0));
      answers.to.write(all.subarray(0, bytes));
      if (bytes < all.length) answers.data.push(all.subarray(bytes));
      else holdingAnswers = false;
    },
    release: () => {
      holding = false;
      for (const send of held.splice(0)) send();
    },
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

describe.each(url ? [url] : [])(
  "a statement given up on while its connection opens (%s)",
  (base) => {
    it("leaves the connection to the statements after it", async () => {
      const proxy = await holdingProxy(new URL(base));
      // one connection, opened by the first statement; the server takes 300 ms to let it in
      const db = openPostgres(proxy.url, { max: 1 });
      try {
        proxy.hold();
        const late = db
          .query("select 'late' as v", [], { answerBy: Date.now() + 100 })
          .catch((e: unknown) => e);
        setTimeout(proxy.release, 300);
        expect(unavailableFailure(await late)?.code).toBe("unavailable");
        // postgres.js 3.4's cancel of the statement its connection was opened for leaves that
        // connection open and unused for the rest of its life: this would wait for minutes
        const next = db.query<{ v: string }>("select 'next' as v");
        const waited = new Promise((r) => setTimeout(() => r("no answer in 2 s"), 2000));
        expect(await Promise.race([next, waited])).toEqual([{ v: "next" }]);
      } finally {
        proxy.close();
        await db.close();
      }
    });
  },
);

describe.each(url ? [url] : [])("a COPY that ended while its stream was full (%s)", (base) => {
  it("leaves its connection to the next export", async () => {
    const proxy = await holdingProxy(new URL(base));
    const db = openPostgres(proxy.url, { max: 1 });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const answer = <T>(p: Promise<T>) =>
      Promise.race([p, sleep(2000).then(() => "no answer in 2 s")]);
    try {
      // the export connection opened
      for await (const _ of db.copyOut!("copy (select 1) to stdout"));
      // ~120 KB of rows: the first 20 KB read (as an export reads before it answers), then,
      // while nobody reads (a request awaiting something else, a slow client), the rest and the
      // COPY's end in two reads of the socket (at most 64 KB each). postgres.js 3.4 pauses the
      // socket when a chunk fills the stream (64 KB) and ends the stream in that same read:
      // nothing resumed the socket, and the next statement on that connection waited for good
      // (porsager/postgres#499, #1016)
      proxy.holdAnswers();
      const it = db.copyOut!(
        "copy (select g, repeat('x', 400) from generate_series(1, 300) g) to stdout",
      )[Symbol.asyncIterator]();
      const first = it.next();
      await sleep(300);
      proxy.sendAnswers(20_000);
      let text = new TextDecoder().decode((await first).value);
      proxy.sendAnswers();
      await sleep(300);
      for (let r = await it.next(); !r.done; r = await it.next())
        text += new TextDecoder().decode(r.value);
      expect(text.trim().split("\n")).toHaveLength(300);
      const next = (async () => {
        let got = "";
        for await (const chunk of db.copyOut!("copy (select 2) to stdout"))
          got += new TextDecoder().decode(chunk);
        return got;
      })();
      expect(await answer(next)).toBe("2\n");
    } finally {
      proxy.close();
      await db.close();
    }
  });
});

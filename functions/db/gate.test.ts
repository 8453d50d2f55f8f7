import { describe, expect, it } from "vitest";
import { databaseGate } from "./gate.ts";
import { outageKind } from "./outage.ts";

const err = (code: string) => Object.assign(new Error(code), { code });

describe("outage kinds", () => {
  it("tells a refused connection, a lost one and a busy server apart, and ignores the rest", () => {
    expect(outageKind(err("ECONNREFUSED"))).toBe("refused");
    expect(outageKind(err("57P03"))).toBe("refused");
    expect(outageKind(err("CONNECT_TIMEOUT"))).toBe("refused");
    expect(outageKind(new AggregateError([err("ECONNREFUSED")]))).toBe("refused");
    expect(outageKind(err("57P01"))).toBe("lost");
    expect(outageKind(err("CONNECTION_CLOSED"))).toBe("lost");
    expect(outageKind(err("57014"))).toBe("busy");
    expect(outageKind(err("23505"))).toBeNull();
    expect(outageKind(new Error("plain"))).toBeNull();
    expect(outageKind(null)).toBeNull();
  });
});

describe("the database gate", () => {
  function gateWith(isUp: () => boolean, waitMs = 1000) {
    const changes: boolean[] = [];
    const gate = databaseGate({
      waitMs,
      probeEveryMs: 10,
      settleMs: 30,
      probe: async () => {
        if (!isUp()) throw err("ECONNREFUSED");
      },
      onChange: (up) => changes.push(up),
    });
    return { gate, changes };
  }

  it("holds statements while the database is down and sends them once it is back", async () => {
    let up = false;
    const { gate, changes } = gateWith(() => up);
    let sent = 0;
    const statement = async () => {
      sent++;
      if (!up) throw err("ECONNREFUSED");
      return "row";
    };
    const first = gate.run(statement, false);
    await new Promise((r) => setTimeout(r, 50));
    // while down, the waiting statement is not sent again on every probe
    const later = gate.run(statement, false);
    const sentWhileDown = sent;
    await new Promise((r) => setTimeout(r, 100));
    expect(sent).toBe(sentWhileDown);
    up = true;
    await expect(first).resolves.toBe("row");
    await expect(later).resolves.toBe("row");
    // "back" is told once the database has stayed up a while
    expect(changes).toEqual([false]);
    await new Promise((r) => setTimeout(r, 60));
    expect(changes).toEqual([false, true]);
  });

  it("tells an outage once when the database drops out again just after it was back", async () => {
    let up = false;
    const { gate, changes } = gateWith(() => up);
    const statement = async () => {
      if (!up) throw err("57P01");
      return "row";
    };
    const first = gate.run(statement, true);
    await new Promise((r) => setTimeout(r, 20));
    up = true;
    await expect(first).resolves.toBe("row");
    // a stopping Postgres drops its connections one by one: the next one fails after a probe passed
    up = false;
    const second = gate.run(statement, true);
    await new Promise((r) => setTimeout(r, 20));
    up = true;
    await expect(second).resolves.toBe("row");
    await new Promise((r) => setTimeout(r, 60));
    expect(changes).toEqual([false, true]);
    gate.close();
  });

  it("gives up with unavailable after its wait", async () => {
    const { gate } = gateWith(() => false, 100);
    await expect(gate.run(() => Promise.reject(err("ECONNREFUSED")), true)).rejects.toMatchObject({
      failure: { code: "unavailable" },
    });
    gate.close();
  });

  it("never sends a write again after its connection died, but does a read", async () => {
    let up = true;
    const { gate } = gateWith(() => up);
    let writes = 0;
    await expect(
      gate.run(async () => {
        writes++;
        up = false;
        throw err("57P01");
      }, false),
    ).rejects.toMatchObject({ code: "57P01" });
    expect(writes).toBe(1);
    let reads = 0;
    setTimeout(() => {
      up = true;
    }, 50);
    await expect(
      gate.run(async () => {
        reads++;
        if (reads === 1) throw err("CONNECTION_CLOSED");
        return "read";
      }, true),
    ).resolves.toBe("read");
    expect(reads).toBe(2);
    gate.close();
  });

  it("answers by the request's time: waits no longer, and tells the attempt what is left", async () => {
    let up = false;
    // the gate would wait a minute: answering long before shows the request's time ruled
    const { gate } = gateWith(() => up, 60_000);
    const started = Date.now();
    await expect(
      gate.run(() => Promise.reject(err("ECONNREFUSED")), true, started + 150),
    ).rejects.toMatchObject({ failure: { code: "unavailable" } });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(30_000);
    // back just before the request's time runs out: the attempt gets only the rest of it
    setTimeout(() => {
      up = true;
    }, 100);
    const answerBy = Date.now() + 400;
    let left = 0;
    await gate.run(
      async (msLeft) => {
        if (!up) throw err("ECONNREFUSED");
        left = msLeft;
      },
      false,
      answerBy,
    );
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(300);
    gate.close();
  });

  it("passes other errors through untouched", async () => {
    const { gate } = gateWith(() => true);
    await expect(gate.run(() => Promise.reject(err("23505")), true)).rejects.toMatchObject({
      code: "23505",
    });
    expect(gate.up).toBe(true);
  });
});

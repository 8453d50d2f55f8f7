// A bench whose reader goes away (`| head`, a closed terminal) still cleans up after itself: the
// database it created, the processes it started. Writing to the closed pipe fails with EPIPE,
// which Node raises as an unhandled 'error' event that ends the process at once, before any
// `finally` — it left a `formdown_bench_*` database and a running server behind (issue 28).
// Imported first by each bench that creates something: one that handles SIGTERM (its clean-up)
// is sent one; any other runs on to its end, its lines unread, and cleans up there.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    if (process.listenerCount("SIGTERM") > 0) process.kill(process.pid, "SIGTERM");
  });

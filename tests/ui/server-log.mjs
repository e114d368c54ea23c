// A test server's output, read as it comes: when it says it listens, and when a line a test waits for appears.
// Waits on what the server prints, never on time; the limits bound a failure (a server that never says so).

/** How long a server may take to say it listens before the test gives up on it (a bound on a failure, not a wait:
 * a server that starts is used the moment it says so). */
const START_LIMIT_MS = 300000;

/** The server's output so far (`text()`); `listening`: resolves once it prints `url` (Jupyter and code-server print
 * the URL they serve once they listen), rejects if it exits first or stays silent past START_LIMIT_MS; `seen(test)`:
 * resolves true once `test(text())` holds (checked on each line it prints), false if it does not within `limitMs`. */
export function serverLog(proc, url) {
  let text = '';
  let heard;
  let limit;
  const listening = new Promise((resolve, reject) => {
    heard = () => text.includes(url) && resolve();
    proc.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    limit = setTimeout(() => reject(new Error(`not listening after ${START_LIMIT_MS / 1000} s`)), START_LIMIT_MS);
    limit.unref();
  });
  listening.then(
    () => clearTimeout(limit),
    () => clearTimeout(limit),
  );
  const waiting = new Set();
  for (const s of [proc.stdout, proc.stderr])
    s.on('data', (d) => {
      text += d;
      heard();
      for (const w of waiting) w();
    });
  const seen = (test, limitMs) =>
    new Promise((resolve) => {
      const done = (ok) => {
        waiting.delete(check);
        clearTimeout(bound);
        resolve(ok);
      };
      const check = () => test(text) && done(true);
      const bound = setTimeout(() => done(false), limitMs);
      bound.unref();
      waiting.add(check);
      check();
    });
  return { listening, text: () => text, seen };
}

// Small helpers for the local runtime: a free loopback port, waiting until a check passes, and
// saying plainly which port is taken.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(check: () => Promise<unknown>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      if (error instanceof Error && error.message.startsWith('DynamoDB Local exited')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * A start-up error a person can act on: "port taken" names the port, what wanted it and the
 * setting that moves it. Other errors pass through unchanged.
 */
export function explainListenError(
  error: unknown,
  port: number | undefined,
  what: string,
  setting: string,
): unknown {
  const code = (error as { code?: string }).code;
  const taken =
    code === 'EADDRINUSE' || /address already in use|BindException/i.test(String(error));
  if (!taken || !port) return error;
  return new Error(
    `Port ${port} is taken, so ${what} cannot start. Stop whatever uses it, or choose another port with ${setting}.`,
    { cause: error },
  );
}

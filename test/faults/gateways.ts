import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './cluster.ts';

const LAUNCHER = fileURLToPath(new URL('../../bin/leadgate.js', import.meta.url));

/**
 * A gateway process started the way `npm start` starts it (the compiled launcher), on a fixed port
 * so a restarted process is found at the same address. Exits the suite did not cause are counted.
 */
export class Gateway {
  readonly url: string;
  private child: ChildProcess | undefined;
  private killing = false;
  /** Exits the process chose itself: a crash. */
  selfExits = 0;
  /** Called on such an exit. */
  onSelfExit: () => void = () => undefined;
  log = '';

  private constructor(
    readonly name: string,
    private readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  static async start(
    name: string,
    env: Record<string, string>,
  ): Promise<{ gateway: Gateway; readyMs: number }> {
    const gateway = new Gateway(name, await freePort(), env);
    return { gateway, readyMs: await gateway.spawn() };
  }

  /** Starts the process and resolves with the milliseconds until /readyz answers 200. */
  async spawn(): Promise<number> {
    const started = performance.now();
    this.killing = false;
    const child = spawn(process.execPath, [LAUNCHER, 'serve'], {
      env: {
        ...process.env,
        ...this.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
        RATE_LIMIT_RPS: '0',
        ADMIN_API_KEY: 'fault-suite',
        LEADGATE_DEMO: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (this.log = (this.log + d.toString()).slice(-20_000)));
    child.stderr?.on('data', (d: Buffer) => (this.log = (this.log + d.toString()).slice(-20_000)));
    child.once('exit', (code, signal) => {
      if (!this.killing) {
        this.selfExits++;
        this.log += `\n[${this.name} exited by itself: code ${code}, signal ${signal}]\n`;
        this.onSelfExit();
      }
    });
    this.child = child;
    return this.untilReady(started, 30_000);
  }

  /** `kill -9`, then start again; resolves with the milliseconds from the restart to ready. */
  async killAndRestart(): Promise<number> {
    await this.kill('SIGKILL');
    return this.spawn();
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.killing = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }

  /** Milliseconds from `since` until /readyz answers 200, polling every 25 ms. */
  async untilReady(since = performance.now(), timeoutMs = 30_000): Promise<number> {
    for (;;) {
      try {
        const res = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(1_000) });
        if (res.status === 200) return performance.now() - since;
      } catch {
        // not listening yet
      }
      if (performance.now() - since > timeoutMs) throw new Error(`${this.name} not ready:\n${this.log}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

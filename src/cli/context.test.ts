import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandContext, processIo, runWithIo, setExitCode, type CommandIo } from './context.js';

const otherWorld = (): CommandIo => ({
  env: {}, cwd: '/', stdin: null, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, out: () => undefined, err: () => undefined,
});

describe('runWithIo', () => {
  it('runs a command of this process\'s own world outside the store, so a server started from a shell carries none', async () => {
    const saved = process.exitCode;
    try {
      process.exitCode = undefined;
      let inside: unknown = 'not run';
      const status = await runWithIo(processIo(), async () => {
        await Promise.resolve();
        inside = commandContext.getStore();
        setExitCode(3);
      });
      assert.equal(inside, undefined);
      assert.equal(status, 3);
    } finally {
      process.exitCode = saved;
    }
  });

  it('carries another world through the command, its exit status included, and nothing once the last command ended', async () => {
    const seen: Array<string | undefined> = [];
    const command = (cwd: string) => runWithIo({ ...otherWorld(), cwd }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push(commandContext.getStore()?.cwd);
      setExitCode(cwd === '/a' ? 2 : 0);
    });
    assert.deepEqual(await Promise.all([command('/a'), command('/b')]), [2, 0]);
    assert.deepEqual(seen.sort(), ['/a', '/b']);
    assert.equal(commandContext.getStore(), undefined);
    assert.equal(process.exitCode ?? 0, 0);
  });
});

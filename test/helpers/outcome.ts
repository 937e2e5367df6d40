// A child process's exit code and everything it printed, whether it succeeded or not.
export const outcome = (command: Promise<{ stdout: string; stderr: string }>) =>
  command.then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );

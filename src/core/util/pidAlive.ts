/** Whether a process exists: the liveness check of the lock files and of the temporary files of killed saves. */

/** Whether a process with this pid exists on this host (EPERM: it exists but belongs to someone else). */
export function pidAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

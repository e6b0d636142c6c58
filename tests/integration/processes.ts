// What a started npm start left running, read from /proc: the DynamoDB Local on a port, and the
// processes a runtime started itself.
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of DynamoDB Local processes listening on `port` (its command line names the port). */
export function dynamoDbProcesses(port: number): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const at = args.indexOf('-port');
      const isOurs =
        args.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && args[at + 1] === String(port);
      return isOurs ? [Number(entry)] : [];
    } catch {
      return []; // Gone while we looked.
    }
  });
}

/** The command lines of the processes whose parent is `pid`. */
export function childrenOf(pid: number): { pid: number; command: string }[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      // The parent's pid is the 4th field of stat, after the name in brackets.
      const parent = Number(
        readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1],
      );
      if (parent !== pid) return [];
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      return [{ pid: Number(entry), command }];
    } catch {
      return []; // Gone while we looked.
    }
  });
}

/** The app's three processes as npm start runs them: the web server, the worker, the schedules. */
export const APP_PROCESSES = [/web-server\.js/, /local\/worker\.js/, /local\/schedules\.js/];

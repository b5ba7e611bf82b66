/**
 * npm run atelier -- <command>: the operator command line (users, admins, credits, API keys).
 * It opens the database directly, or goes through the running server that owns it.
 */
import { runOperatorCli } from '../../server/src/operator/operatorCli.ts';

process.exitCode = await runOperatorCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});

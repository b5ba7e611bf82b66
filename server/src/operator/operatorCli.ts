import { parseArgs } from 'node:util';
import type { AdminUser, AdminUserList, CreatedApiKey, CreditAdjustment } from '@atelier/api/schemas';
import { loadConfig, type ServerConfig } from '../config.ts';
import { outboxMessages, readOutboxMessage } from '../mail/mailer.ts';
import { outboxDirIn } from '../services.ts';
import { openOperatorBackend, type ApiAnswer, type OperatorBackend } from './operatorBackend.ts';

export const USAGE = `Usage: npm run atelier -- <command> [options]

Commands:
  users:create <email> [--password P] [--name N] [--admin]   create an account
  users:list [--search TEXT]                                 list accounts
  admin:grant <email>                                        make an account an admin
  admin:revoke <email>                                       make an admin a user again
  credits:add <email> <amount> --reason R                    add (or, negative, remove) credits
  keys:create <email> [--name N]                             create an API key; prints the secret once
  mail:latest                                                show the newest message in the mail outbox

Every command takes --json for machine-readable output.
Works whether or not the server runs: with a running server it goes through it.`;

/** A mistake in what the operator typed: shown with the usage, exit code 2. */
export class UsageError extends Error {}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const OPTIONS = {
  json: { type: 'boolean' },
  admin: { type: 'boolean' },
  password: { type: 'string' },
  name: { type: 'string' },
  reason: { type: 'string' },
  search: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Flags = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** `credits:add a@b -50` would otherwise read "-50" as options -5 -0. */
const NEGATIVE = /^-\d+$/;

export function parseCommand(argv: string[]): { command: string | undefined; args: string[]; flags: Flags } {
  const escaped = argv.map((a) => (NEGATIVE.test(a) ? `\u0000${a}` : a));
  let parsed;
  try {
    parsed = parseArgs({ args: escaped, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [command, ...args] = parsed.positionals.map((p) => p.replace(/^\u0000/, ''));
  return { command, args, flags: parsed.values as Flags };
}

function expectArgs(args: string[], names: string[]): string[] {
  if (args.length !== names.length) {
    throw new UsageError(`expected ${names.map((n) => `<${n}>`).join(' ') || 'no arguments'}, got ${args.length ? args.join(' ') : 'none'}`);
  }
  return args;
}

/** Turns an API error answer into a readable failure. */
function check(answer: ApiAnswer, ok: number): any {
  if (answer.status === ok) return answer.body;
  const error = answer.body?.error;
  const issues = (error?.issues ?? []).map((i: { path: string; message: string }) => `${i.path || 'input'}: ${i.message}`);
  throw new Error([`${error?.message ?? `HTTP ${answer.status}`} (${error?.code ?? 'UNKNOWN_ERROR'})`, ...issues].join('\n  '));
}

async function userByEmail(backend: OperatorBackend, email: string): Promise<AdminUser> {
  const found = check(await backend.request('GET', `/admin/users?email=${encodeURIComponent(email)}`), 200) as AdminUserList;
  const user = found.users[0];
  if (!user) throw new Error(`no account with email ${email}`);
  return user;
}

const describeUser = (u: AdminUser) => `${u.email} (${u.role}${u.disabled ? ', disabled' : ''}, ${u.credits} credits, id ${u.id})`;

type Handler = (backend: OperatorBackend, args: string[], flags: Flags, io: CliIo) => Promise<unknown>;

const COMMANDS: Record<string, Handler> = {
  async 'users:create'(backend, args, flags, io) {
    const [email] = expectArgs(args, ['email']);
    const body = { email, password: flags.password, name: flags.name, role: flags.admin ? 'admin' : 'user' };
    const user = check(await backend.request('POST', '/admin/users', body), 201) as AdminUser;
    if (!flags.json) {
      io.out(`Created ${describeUser(user)}`);
      if (!flags.password) io.out('It has no password yet: its owner sets one through "Forgot password".');
    }
    return user;
  },
  async 'users:list'(backend, args, flags, io) {
    expectArgs(args, []);
    const users: AdminUser[] = [];
    let total = 0;
    do {
      const query = new URLSearchParams({ limit: '100', offset: String(users.length), ...(flags.search ? { q: flags.search } : {}) });
      const page = check(await backend.request('GET', `/admin/users?${query}`), 200) as AdminUserList;
      users.push(...page.users);
      total = page.total;
      if (page.users.length === 0) break;
    } while (users.length < total);
    if (!flags.json) {
      if (users.length === 0) io.out('No accounts.');
      for (const u of users) io.out([u.email.padEnd(32), u.role.padEnd(5), (u.disabled ? 'disabled' : 'active').padEnd(8), String(u.credits).padStart(8), u.createdAt].join('  '));
    }
    return { users, total };
  },
  'admin:grant': (backend, args, flags, io) => setRole(backend, args, flags, io, 'admin'),
  'admin:revoke': (backend, args, flags, io) => setRole(backend, args, flags, io, 'user'),
  async 'credits:add'(backend, args, flags, io) {
    const [email, amountText] = expectArgs(args, ['email', 'amount']);
    const amount = Number(amountText);
    if (!Number.isSafeInteger(amount) || amount === 0) throw new UsageError(`amount must be a non-zero whole number, got ${amountText}`);
    if (!flags.reason?.trim()) throw new UsageError('--reason is required: it is recorded in the ledger');
    const user = await userByEmail(backend, email!);
    const result = check(await backend.request('POST', `/admin/users/${user.id}/credits`, { amount, reason: flags.reason }), 200) as CreditAdjustment;
    if (!flags.json) io.out(`${amount > 0 ? 'Added' : 'Removed'} ${Math.abs(amount)} credits ${amount > 0 ? 'to' : 'from'} ${user.email}; balance ${result.balance}`);
    return result;
  },
  async 'keys:create'(backend, args, flags, io) {
    const [email] = expectArgs(args, ['email']);
    const user = await userByEmail(backend, email!);
    const created = check(await backend.request('POST', `/admin/users/${user.id}/api-keys`, { name: flags.name }), 201) as CreatedApiKey;
    if (!flags.json) {
      io.out(`API key ${created.key.name ?? 'Unnamed'} for ${user.email}:`);
      io.out(created.secret);
      io.out('This is the only time the secret is shown; store it now.');
    }
    return created;
  },
};

async function setRole(backend: OperatorBackend, args: string[], flags: Flags, io: CliIo, role: 'admin' | 'user') {
  const [email] = expectArgs(args, ['email']);
  const user = await userByEmail(backend, email!);
  const updated = check(await backend.request('PATCH', `/admin/users/${user.id}`, { role }), 200) as AdminUser;
  if (!flags.json) io.out(`${updated.email} is now ${role === 'admin' ? 'an admin' : 'a user'}`);
  return updated;
}

/** The newest outbox message: how a self-hoster without SMTP reads a password-reset link. */
function mailLatest(config: ServerConfig, args: string[], flags: Flags, io: CliIo) {
  expectArgs(args, []);
  const file = outboxMessages(outboxDirIn(config.dataDir)).at(-1);
  if (!file) throw new Error(`the outbox ${outboxDirIn(config.dataDir)} is empty`);
  const message = readOutboxMessage(file);
  const result = { file, to: message.headers.to, subject: message.headers.subject, date: message.headers.date, text: message.text };
  if (!flags.json) {
    io.out(`${file}\nTo: ${result.to}\nSubject: ${result.subject}\nDate: ${result.date}\n`);
    io.out(message.text.trimEnd());
  }
  return result;
}

/** Runs one command; returns the process exit code (0 ok, 1 failed, 2 bad usage). */
export async function runOperatorCli(argv: string[], io: CliIo, env: Record<string, string | undefined> = process.env): Promise<number> {
  let json = argv.includes('--json');
  try {
    const { command, args, flags } = parseCommand(argv);
    json = Boolean(flags.json);
    if (!command || flags.help || command === 'help') {
      io.out(USAGE);
      return command || flags.help ? 0 : 2;
    }
    const config = loadConfig(env);
    if (command === 'mail:latest') {
      const result = mailLatest(config, args, flags, io);
      if (json) io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    const entry = COMMANDS[command];
    if (!entry) throw new UsageError(`unknown command "${command}"`);
    const backend = await openOperatorBackend(config);
    try {
      const result = await entry(backend, args, flags, io);
      if (json) io.out(JSON.stringify(result, null, 2));
    } finally {
      await backend.close();
    }
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError;
    if (json) io.out(JSON.stringify({ error: (err as Error).message }));
    io.err(`error: ${(err as Error).message}`);
    if (usage) io.err(`\n${USAGE}`);
    return usage ? 2 : 1;
  }
}

import { createApi } from '../app.ts';
import type { ServerConfig } from '../config.ts';
import { openDatabase, pgliteDirIn } from '../db/client.ts';
import { randomToken } from '../domain/secrets.ts';
import { createServices } from '../services.ts';
import { claimDataDir, DataDirBusy } from './dataDirLock.ts';
import { readOperatorAccess, type OperatorAccess } from './operatorAccess.ts';

export interface ApiAnswer {
  status: number;
  body: any;
}

/**
 * The operator command line always speaks the admin API: in-process over its own database
 * connection when it may open the database, or over HTTP to the running server that owns it.
 */
export interface OperatorBackend {
  /** 'direct' or the running server's URL. */
  via: string;
  request(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  close(): Promise<void>;
}

export async function openOperatorBackend(config: ServerConfig): Promise<OperatorBackend> {
  if (config.databaseUrl) return direct(config, async () => {});
  try {
    const release = await claimDataDir(config.dataDir, 'cli');
    return await direct(config, release).catch((err) => {
      release();
      throw err;
    });
  } catch (err) {
    if (!(err instanceof DataDirBusy) || err.holder.owner !== 'server') throw err;
    return remote(await waitForAccess(config.dataDir, err.holder.pid));
  }
}

async function direct(config: ServerConfig, release: () => void | Promise<void>): Promise<OperatorBackend> {
  const database = await openDatabase({ url: config.databaseUrl, pgliteDir: pgliteDirIn(config.dataDir) });
  const token = randomToken();
  const api = createApi(createServices(config, database.db, { operatorToken: token }));
  return {
    via: 'direct',
    async request(method, path, body) {
      const res = await api.request(path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    async close() {
      await database.close();
      await release();
    },
  };
}

/** The server writes its address and token once it listens; give a starting server a moment. */
async function waitForAccess(dataDir: string, pid: number): Promise<OperatorAccess> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const access = readOperatorAccess(dataDir);
    if (access?.pid === pid) return access;
    if (Date.now() > deadline) throw new Error(`the server (pid ${pid}) owns the database but has not published its address in ${dataDir}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function remote(access: OperatorAccess): OperatorBackend {
  return {
    via: access.url,
    async request(method, path, body) {
      const res = await fetch(`${access.url}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${access.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    },
    async close() {},
  };
}

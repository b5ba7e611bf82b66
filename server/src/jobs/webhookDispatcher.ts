/**
 * Sends the webhook outbox: due deliveries are claimed (one sender per attempt across nodes),
 * signed, POSTed, and retried with growing delays until delivered or given up.
 */
import type { GenerationSettings } from '../config.ts';
import type { Database } from '../db/client.ts';
import { claimDueDeliveries, recordDeliveryAttempt, signWebhook, type DueDelivery } from '../domain/webhooks.ts';

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private inFlight: Promise<unknown> = Promise.resolve();
  private readonly db: Database;
  private readonly settings: GenerationSettings['webhooks'];
  private readonly pollMs: number;

  constructor(db: Database, settings: GenerationSettings['webhooks'], pollMs = 1000) {
    this.db = db;
    this.settings = settings;
    this.pollMs = pollMs;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
  }

  /** Sends what is due now (also called by tests). */
  wake(): Promise<unknown> {
    if (this.busy) return this.inFlight;
    this.busy = true;
    this.inFlight = this.drain()
      .catch((err: Error) => console.error('webhooks:', err.message))
      .finally(() => {
        this.busy = false;
      });
    return this.inFlight;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const due = await claimDueDeliveries(this.db, 20, this.settings.timeoutMs * 3);
      if (due.length === 0) return;
      await Promise.all(due.map((d) => this.deliver(d)));
    }
  }

  private async deliver({ delivery, url, secret }: DueDelivery): Promise<void> {
    const timestamp = Math.floor(Date.now() / 1000);
    let result: { ok: boolean; status: number | null; error: string | null };
    try {
      const res = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Atelier-Webhooks/1',
          'webhook-id': delivery.messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, delivery.messageId, timestamp, delivery.payload),
        },
        body: delivery.payload,
      });
      await res.arrayBuffer().catch(() => undefined);
      result = { ok: res.status >= 200 && res.status < 300, status: res.status, error: res.ok ? null : `HTTP ${res.status}` };
    } catch (err) {
      result = { ok: false, status: null, error: (err as Error).message };
    }
    await recordDeliveryAttempt(this.db, delivery.id, result, this.settings.retryDelaysMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
  }
}

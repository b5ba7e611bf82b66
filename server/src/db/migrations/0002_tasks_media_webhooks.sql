-- Generation tasks, their media files, webhook endpoints and deliveries, replayable business-API
-- requests, and server-wide secrets.

CREATE TABLE tasks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('image', 'video', 'music')),
  -- text-to-image, image-to-image, text-to-video, text-to-music
  mode text NOT NULL,
  model text NOT NULL,
  prompt text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- What the task spent when it was created; a refund gives back exactly this.
  cost integer NOT NULL CHECK (cost >= 0),
  status text NOT NULL DEFAULT 'submitted'
    CHECK (status IN ('submitted', 'queued', 'processing', 'completed', 'failed', 'cancelled')),
  progress real NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
  eta_ms integer,
  error_code text,
  error_message text,
  visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('public', 'private')),
  source text NOT NULL DEFAULT 'dashboard' CHECK (source IN ('dashboard', 'api')),
  -- The client's Idempotency-Key: the same key never creates (or charges) a second task.
  idempotency_key text,
  -- Anyone with this token may see the task's files; null when not shared.
  share_token text UNIQUE,
  attempts integer NOT NULL DEFAULT 0,
  -- A queued task is not picked before this time (retry backoff).
  run_after timestamptz NOT NULL DEFAULT now(),
  worker_id text,
  -- Refreshed by whoever runs the task; a stale one means the runner died.
  heartbeat_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, idempotency_key)
);
--> statement-breakpoint
CREATE INDEX tasks_user_kind_idx ON tasks (user_id, kind, created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX tasks_public_idx ON tasks (created_at DESC, id DESC) WHERE visibility = 'public' AND status = 'completed';
--> statement-breakpoint
CREATE INDEX tasks_runnable_idx ON tasks (run_after) WHERE status IN ('submitted', 'queued');
--> statement-breakpoint
CREATE INDEX tasks_processing_idx ON tasks (heartbeat_at) WHERE status = 'processing';
--> statement-breakpoint
CREATE TABLE media (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  task_id uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- An uploaded picture (image-to-image) or a generated file.
  role text NOT NULL CHECK (role IN ('input', 'output')),
  position integer NOT NULL DEFAULT 0,
  storage_key text NOT NULL UNIQUE,
  content_type text NOT NULL,
  byte_size bigint NOT NULL CHECK (byte_size >= 0),
  width integer,
  height integer,
  duration_ms integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX media_task_idx ON media (task_id, role, position);
--> statement-breakpoint
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  url text NOT NULL,
  description text,
  -- whsec_ + base64 key; kept readable because every delivery is signed with it.
  secret text NOT NULL,
  -- Event types to send; an empty list means all.
  events jsonb NOT NULL DEFAULT '[]'::jsonb,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id);
--> statement-breakpoint
-- The outbox: written in the same transaction as the task's final state, sent afterwards.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- The webhook-id header: the same on every retry, so receivers can drop duplicates.
  message_id text NOT NULL UNIQUE,
  event_type text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
--> statement-breakpoint
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
--> statement-breakpoint
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);
--> statement-breakpoint
-- Business-API POSTs with an Idempotency-Key: the first answer is kept and replayed.
CREATE TABLE idempotent_requests (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_flight', 'done')),
  response_status integer,
  response_type text,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);
--> statement-breakpoint
CREATE INDEX idempotent_requests_expiry_idx ON idempotent_requests (expires_at);
--> statement-breakpoint
-- Secrets every server node must share (the key that signs media links).
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Accounts, sessions, API keys, the credits ledger and orders. Plain SQL that PGlite and
-- PostgreSQL both run; statements are separated by the breakpoint marker so the migrator can run
-- them one at a time through either driver.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE CHECK (email = lower(email)),
  name text,
  -- Null for an account created without a password (it signs in after a reset).
  password_hash text,
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- sha256 of the cookie's token: a leaked table cannot be replayed as cookies.
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ip text,
  user_agent text
);
--> statement-breakpoint
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
--> statement-breakpoint
CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
--> statement-breakpoint
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text,
  masked_key text NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
--> statement-breakpoint
CREATE INDEX api_keys_user_id_idx ON api_keys (user_id);
--> statement-breakpoint
CREATE TABLE credit_balances (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE RESTRICT,
  -- The last line of defence: whatever the code does, a balance cannot go below zero.
  balance integer NOT NULL DEFAULT 0 CHECK (balance >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE orders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  pack_id text NOT NULL,
  credits integer NOT NULL CHECK (credits > 0),
  price integer NOT NULL CHECK (price >= 0),
  currency text NOT NULL,
  provider text NOT NULL CHECK (provider IN ('manual', 'stripe')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'cancelled')),
  checkout_session_id text UNIQUE,
  checkout_url text,
  approved_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz
);
--> statement-breakpoint
CREATE INDEX orders_user_id_idx ON orders (user_id, created_at DESC);
--> statement-breakpoint
CREATE INDEX orders_status_idx ON orders (status, created_at DESC);
--> statement-breakpoint
CREATE TABLE credit_ledger (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  kind text NOT NULL CHECK (kind IN ('grant', 'topup', 'spend', 'refund', 'adjustment')),
  amount integer NOT NULL CHECK (amount <> 0),
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  reason text NOT NULL,
  order_id uuid REFERENCES orders (id) ON DELETE RESTRICT,
  task_id text,
  idempotency_key text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (kind = 'spend' AND amount < 0)
    OR (kind IN ('grant', 'topup', 'refund') AND amount > 0)
    OR kind = 'adjustment'
  ),
  -- A retried request carries the same key and must not move the balance twice.
  UNIQUE (user_id, idempotency_key)
);
--> statement-breakpoint
CREATE INDEX credit_ledger_user_id_idx ON credit_ledger (user_id, id DESC);
--> statement-breakpoint
-- Append-only: corrections are new entries (refund, adjustment), never edits.
CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_ledger is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER credit_ledger_append_only
  BEFORE UPDATE OR DELETE ON credit_ledger
  FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only();
--> statement-breakpoint
-- Stripe delivers an event at least once; its id is recorded so each is applied once.
CREATE TABLE stripe_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

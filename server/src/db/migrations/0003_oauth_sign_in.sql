-- Sign-in with GitHub and Google: which provider account belongs to which Atelier account, and
-- the short-lived state of sign-ins in progress (kept in the database so any server node can
-- finish a flow another one started).

CREATE TABLE oauth_identities (
  provider text NOT NULL CHECK (provider IN ('github', 'google')),
  -- The provider's stable id for the person; an email can change hands, this cannot.
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The verified email the provider reported when the identity was linked.
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  PRIMARY KEY (provider, subject)
);
--> statement-breakpoint
CREATE INDEX oauth_identities_user_id_idx ON oauth_identities (user_id);
--> statement-breakpoint
CREATE TABLE oauth_flows (
  -- sha256 of the state sent to the provider (and kept in the browser's cookie).
  state_hash text PRIMARY KEY,
  provider text NOT NULL CHECK (provider IN ('github', 'google')),
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  return_to text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
--> statement-breakpoint
CREATE INDEX oauth_flows_expires_at_idx ON oauth_flows (expires_at);

import { sql } from 'kysely';
import type { Migration } from './migration.ts';

export const SignInAndSessions: Migration = {
  version: 1,
  description: 'Signing keys, sign-in attempts and sessions',
  className: 'SignInAndSessions',
  async up(db) {
    await sql`
      create table signing_keys (
        kid text primary key,
        private_jwk jsonb not null,
        public_jwk jsonb not null,
        created_at timestamptz not null default now()
      );
      create table sign_in_attempts (
        state text primary key,
        nonce text not null,
        code_verifier text not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null
      );
      create index sign_in_attempts_expires_at on sign_in_attempts (expires_at);
      create table sessions (
        id_hash text primary key,
        user_subject text not null,
        user_email text not null,
        user_name text not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null
      );
      create index sessions_expires_at on sessions (expires_at);
    `.execute(db);
  },
};

-- Keys have scopes (SPEC §23): read < write < admin, and optionally a list of form slugs the key
-- may touch (null: every form of the account). Keys issued before this are admin on every form.
alter table api_keys
  add column scopes text[] not null default '{admin}'
    check (cardinality(scopes) between 1 and 3 and scopes <@ array['read', 'write', 'admin']),
  add column forms text[] check (forms is null or cardinality(forms) between 1 and 100);

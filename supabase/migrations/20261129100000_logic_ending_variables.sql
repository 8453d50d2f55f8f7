-- Logic (SPEC §24): a response records the ending it reached and its variables' values, both
-- computed by the server from the answers (the page's values are never taken), beside `payload`.
-- Null on forms without endings or variables (and on responses stored before this migration).
alter table responses add column if not exists ending text;
alter table responses add column if not exists variables jsonb;

-- the composed email, kept with the outbox row (the embedded mailbox shows it)
alter table outbox add column text_body text;
alter table outbox add column html_body text;

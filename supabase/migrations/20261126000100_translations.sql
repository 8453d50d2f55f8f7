-- One form, several languages (SPEC §20): the form's translations (language → the translation
-- file's strings, checked against the form when deployed) live with the form, and each response
-- records the language its respondent saw. Answers themselves stay in the form's own terms.
alter table forms add column if not exists translations jsonb not null default '{}';
alter table responses add column if not exists lang text;

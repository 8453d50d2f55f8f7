-- A Markdown table cell's text escaped as src/core/markdown.ts escapeCell does: the characters
-- that would act as syntax (\ ` * [ ] < > |), an underscore at a word's edge, a block marker at
-- a line's start (#, >, +, - or "1." and "1)" before a space), line breaks as <br>, and control
-- characters other than a tab as U+FFFD. The Markdown export (functions/insights/
-- copy-markdown.ts) calls it only for a cell holding one of those; every other cell is written
-- as it is.
create or replace function formdown_markdown_cell(t text) returns text
  language sql immutable parallel safe
  as $$ select regexp_replace(
      replace(replace(replace(
        regexp_replace(
          regexp_replace(
            regexp_replace(
              regexp_replace(t, '([\\`*\[\]<>|])', '\\\1', 'g'),
              '(?<![A-Za-z0-9_])_|_(?![A-Za-z0-9_])', '\\_', 'g'),
            '^([[:space:]]*)([#>+-])([[:space:]])', '\1\\\2\3', 'gn'),
          '^([[:space:]]*[0-9]+)([.)])([[:space:]])', '\1\\\2\3', 'gn'),
        E'\r\n', '<br>'), E'\r', '<br>'), E'\n', '<br>'),
      E'[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]', U&'\FFFD', 'g') $$;

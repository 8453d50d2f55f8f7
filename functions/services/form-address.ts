// How a respondent's page names its form (SPEC §22 "Pages submit by form id"). The slug is a
// name: a rename moves it, and the same account may later make a new form at the old slug. So a
// page rendered by the server (it knows the form) sends the form's id in the path, and a page
// built from files (a static build reads no database: it knows a slug and the commit it was built
// at, never an id) sends its slug and `built`, that commit. A commit the account's reconcile
// applied before the slug's rename was built while the renamed form held the slug: that page
// reaches the renamed form. Any other slug reaches the form that holds it, else the one renamed
// from it (a page built before a rename, the old slug not taken again).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * SQL: the id of the form a page names, with parameters `$1` the path's slug or id, `$2` the
 * same when it is shaped as an id (a slug may look like one: then it is tried as a slug too) and
 * `$3` the commit a page built from files was built at (`FORM_AT_PARAMS`).
 */
export const FORM_AT = `coalesce(
  (select id from forms where id = $2::uuid),
  (select r.form_id from form_slug_redirects r join forms g on g.id = r.form_id
     join applied_commits c on c.account_id = g.account_id and c.commit_sha = $3
    where r.old_slug = $1 and c.applied_at < r.created_at limit 1),
  (select id from forms where slug = $1),
  (select form_id from form_slug_redirects where old_slug = $1))`;

export const formAtParams = (at: string, built: string | undefined) => [
  at,
  UUID.test(at) ? at : null,
  built ?? null,
];

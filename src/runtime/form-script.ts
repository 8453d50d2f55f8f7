// The form's script for a form that arrives later (unlock.ts puts it in the page): the element
// defined as on a form's own page. (A module of its own: importing form-element.ts itself would
// make the entry carry an object of its exports.)
import "./form-element.ts";

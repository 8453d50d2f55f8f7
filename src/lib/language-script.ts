// The one inline script of a page in several languages (SPEC §20), in <head> so a redirect comes
// before anything is drawn. Allowed by its hash in the page's CSP. Every language's page
// remembers a choice made with `?lang=` (what the language switch's links carry) and drops it
// from the address; the form's own page (its base URL) then sends the respondent to the chosen
// language, or once to the first of navigator.languages the form speaks. Reads its data from its
// own attributes: data-langs (the form's own language first), data-path, data-lang (this page's).
export const LANGUAGE_SCRIPT = `(function(){var d=document.currentScript.dataset,a=d.langs.split(" "),u=new URL(location.href),q=u.searchParams.get("lang"),k="formdown-lang",s,c;try{s=localStorage;if(q){s.setItem(k,q);u.searchParams.delete("lang");history.replaceState(null,"",u)}c=q||s.getItem(k)}catch(e){c=q}if(d.lang!==a[0])return;if(!c||a.indexOf(c)<0){var n=(navigator.languages||[]).map(function(l){return l.split("-")[0].toLowerCase()}).filter(function(l){return a.indexOf(l)>=0})[0]||a[0];if(!c)try{s.setItem(k,n)}catch(e){}c=n}if(a.indexOf(c)>0)location.replace(d.path+"/"+c+u.search)})()`;

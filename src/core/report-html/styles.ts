// The report's only stylesheet, inline in the document (no external request). Light colours
// for screen and paper alike; the charts read their colours from these classes.
export const REPORT_CSS = `
:root{color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;background:#f3f4f6}
main{max-width:980px;margin:0 auto;padding:16px}
h1{font-size:1.5rem;margin:0 0 4px}
h2{font-size:1.15rem;margin:28px 0 10px}
h3{font-size:1rem;margin:0 0 2px}
.card>h2:first-child{margin-top:0}
header{margin-bottom:14px}
.meta,.sub{color:#4b5563;margin:0 0 10px}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:10px;margin:14px 0 0;padding:0;list-style:none}
.kpis li{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:10px 12px}
.kpis b{display:block;font-size:1.4rem}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,440px),1fr));gap:14px}
section.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:14px;break-inside:avoid;min-width:0}
.scroll{overflow-x:auto}
.chart{display:block;width:100%;max-width:440px;height:auto;margin:8px 0}
.chart text{font-size:13px;fill:#1f2937}
.chart .v{font-weight:600}
.chart .a{font-size:11px;fill:#4b5563}
.bar{fill:#1d4ed8}.track{fill:#e5e7eb}.reach{fill:#93c5fd}.axis{stroke:#9ca3af}
.det{fill:#b91c1c}.pas{fill:#a16207}.pro{fill:#15803d}
.score{font-size:2rem;font-weight:700;margin:4px 0}
table{border-collapse:collapse;margin:6px 0;font-size:.9rem}
caption{text-align:start;font-weight:600;padding:4px 0}
th,td{border:1px solid #e5e7eb;padding:4px 8px;text-align:start;vertical-align:top}
td.n,td.heat{text-align:end;font-variant-numeric:tabular-nums}
details summary{cursor:pointer;color:#1e40af}
blockquote{margin:6px 0;padding:4px 10px;border-inline-start:3px solid #d1d5db;white-space:pre-wrap;overflow-wrap:anywhere}blockquote footer{color:#4b5563;font-size:13px;white-space:normal}
a{color:#1e40af}
footer{color:#4b5563;margin:28px 0 8px;font-size:.85rem}
@media (max-width:520px){main{padding:10px}section.card{padding:10px}th,td{padding:3px 5px}}
@media print{body{background:#fff;-webkit-print-color-adjust:exact;print-color-adjust:exact}main{max-width:none;padding:0}section.card{border-color:#d1d5db}details{display:none}}
`
  .replace(/\n/g, "")
  .trim();

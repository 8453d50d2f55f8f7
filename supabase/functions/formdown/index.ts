// Supabase Edge Function `formdown` (`supabase functions deploy formdown --no-verify-jwt`): the
// whole API at https://<project>.supabase.co/functions/v1/formdown. Supabase hands the function
// its path with the name in front (`/formdown/api/health`); that prefix is stripped.
import { serveFormdown } from "../../../functions/deno/serve.ts";

await serveFormdown({ pathPrefix: "/formdown" });

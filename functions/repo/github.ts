import { Octokit } from "@octokit/rest";
import type { FormRepository } from "../context.ts";

interface Options {
  token: string;
  /** `owner/name`. */
  repository: string;
  apiUrl?: string | undefined;
}

/** GitHub through the contents API on the default branch; each change is one commit. */
export function githubRepository(options: Options): FormRepository {
  const [owner, repo] = options.repository.split("/") as [string, string];
  const octokit = new Octokit({
    auth: options.token,
    ...(options.apiUrl ? { baseUrl: options.apiUrl } : {}),
  });
  const current = async (path: string): Promise<{ sha: string; content: string } | null> => {
    try {
      const { data } = await octokit.repos.getContent({ owner, repo, path });
      if (Array.isArray(data) || data.type !== "file") return null;
      return { sha: data.sha, content: Buffer.from(data.content ?? "", "base64").toString("utf8") };
    } catch (error) {
      if ((error as { status?: number }).status === 404) return null;
      throw error;
    }
  };
  return {
    kind: "github",
    async write(path, content, message) {
      const existing = await current(path);
      if (existing && existing.content === content) return { sha: null };
      const { data } = await octokit.repos.createOrUpdateFileContents({
        owner,
        repo,
        path,
        message,
        content: Buffer.from(content, "utf8").toString("base64"),
        ...(existing ? { sha: existing.sha } : {}),
      });
      return { sha: data.commit.sha ?? null };
    },
    async remove(path, message) {
      const existing = await current(path);
      if (!existing) return { sha: null };
      const { data } = await octokit.repos.deleteFile({
        owner,
        repo,
        path,
        message,
        sha: existing.sha,
      });
      return { sha: data.commit.sha ?? null };
    },
    async read(path) {
      return (await current(path))?.content ?? null;
    },
    async list(dir) {
      const out: string[] = [];
      // only a folder that is not there is empty: a listing that failed (an outage, a rate
      // limit, a bad token) throws, or a reconcile would read every file as removed and close
      // every form of the repository (test/security/github-repo.test.ts)
      const walk = async (path: string) => {
        const { data } = await octokit.repos.getContent({ owner, repo, path }).catch((error) => {
          if ((error as { status?: number }).status === 404) return { data: [] as unknown };
          throw error;
        });
        if (!Array.isArray(data)) return;
        // the contents API lists at most 1,000 entries of a folder: more would read as removed
        if (data.length >= 1000)
          throw new Error(
            `${path} holds 1,000 entries or more: too many to list through GitHub's contents API.`,
          );
        for (const entry of data as { type: string; path: string }[]) {
          if (entry.type === "dir") await walk(entry.path);
          else if (entry.type === "file") out.push(entry.path);
        }
      };
      await walk(dir);
      return out.sort();
    },
  };
}

/**
 * The submit path's view of forms, kept for two seconds so a submit is one round trip. It holds
 * no data of record: counts, limits and the response cap are enforced by the submit statement
 * itself; writes made in this process forget the entry at once, and another instance's change
 * is seen within the TTL. Forgetting a slug forgets every entry of its form.
 */
export interface FormCache<T> {
  get(slug: string): T | undefined;
  set(slug: string, value: T): void;
  forget(slug: string): void;
}

export function formCache<T>(ttlMs = 2000, max = 5000): FormCache<T> {
  const entries = new Map<string, { value: T; until: number }>();
  return {
    get(slug) {
      const hit = entries.get(slug);
      if (!hit) return undefined;
      if (hit.until > Date.now()) return hit.value;
      entries.delete(slug);
      return undefined;
    },
    set(slug, value) {
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(slug, { value, until: Date.now() + ttlMs });
    },
    forget(slug) {
      entries.delete(slug);
      // the same form cached under its id or with a page's build commit (form-address.ts)
      for (const [key, hit] of entries)
        if (key.startsWith(`${slug}\n`) || (hit.value as { slug?: unknown }).slug === slug)
          entries.delete(key);
    },
  };
}

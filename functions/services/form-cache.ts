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
  /** Entries held now. */
  size(): number;
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
      // oldest first: a key names a page's build too (any text a request sends), so an entry
      // past its two seconds goes now, not when the same key is asked again
      const now = Date.now();
      for (const [key, hit] of entries) {
        if (hit.until > now && entries.size < max) break;
        entries.delete(key);
      }
      entries.delete(slug);
      entries.set(slug, { value, until: now + ttlMs });
    },
    forget(slug) {
      entries.delete(slug);
      // the same form cached under its id or with a page's build commit (form-address.ts)
      for (const [key, hit] of entries)
        if (key.startsWith(`${slug}\n`) || (hit.value as { slug?: unknown }).slug === slug)
          entries.delete(key);
    },
    size: () => entries.size,
  };
}

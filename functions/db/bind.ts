/** A placeholder (`$n`) for each value bound, the value pushed onto the statement's `params`. */
export const binder =
  (params: unknown[]) =>
  (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };

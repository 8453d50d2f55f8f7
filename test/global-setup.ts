// Shared, once-per-run preparation for the suites (extended by the suites that need it).
export default function setup(): void {
  process.env.ASTRO_TELEMETRY_DISABLED = "1";
}

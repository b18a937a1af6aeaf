// Time as the API shows it: UTC timestamps without a zone suffix ("2026-05-23T05:07:31").
export function apiTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

// A small SVG bar chart of the task-wait lag (median per waiter and task duration), written
// by hand: one chart does not justify a plotting dependency.
import type { Waiter } from "./report";
import type { LagSample } from "./scenarios/task-lag";

const COLORS: Record<Waiter, string> = { adaptive: "#2b6cb0", hints: "#38a169", fixed1s: "#dd6b20", fixed3s: "#718096" };
const LABELS: Record<Waiter, string> = {
  adaptive: "pulumi-cims (adaptive)",
  hints: "pulumi-cims (adaptive + hints)",
  fixed1s: "fixed 1 s",
  fixed3s: "fixed 3 s",
};

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

export function lagChart(samples: LagSample[]): string {
  const durations = [...new Set(samples.map((s) => s.durationMs))];
  const waiters: Waiter[] = ["adaptive", "hints", "fixed1s", "fixed3s"];
  const med = (d: number, w: Waiter) => median(samples.filter((s) => s.durationMs === d && s.waiter === w).map((s) => s.lagMs));
  const max = Math.max(...durations.flatMap((d) => waiters.map((w) => med(d, w))), 1);
  const W = 640,
    H = 300,
    left = 60,
    bottom = 50,
    top = 40,
    barW = 40,
    group = barW * waiters.length + 60;
  const y = (v: number) => H - bottom - ((H - bottom - top) * v) / max;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="20" font-size="14">Median lag from task FINISHED to the waiter returning (ms)</text>`,
    `<line x1="${left}" y1="${H - bottom}" x2="${W - 10}" y2="${H - bottom}" stroke="black"/>`,
  ];
  durations.forEach((d, gi) => {
    const gx = left + 20 + gi * group;
    waiters.forEach((w, wi) => {
      const v = med(d, w);
      const x = gx + wi * barW;
      parts.push(
        `<rect x="${x}" y="${y(v).toFixed(1)}" width="${barW - 6}" height="${(H - bottom - y(v)).toFixed(1)}" fill="${COLORS[w]}"/>`,
      );
      parts.push(`<text x="${x + (barW - 6) / 2}" y="${(y(v) - 4).toFixed(1)}" text-anchor="middle">${Math.round(v)}</text>`);
    });
    parts.push(`<text x="${gx + (barW * waiters.length) / 2}" y="${H - bottom + 18}" text-anchor="middle">task ${d / 1000} s</text>`);
  });
  waiters.forEach((w, i) => {
    const lx = left + i * 190;
    parts.push(
      `<rect x="${lx}" y="${H - 18}" width="12" height="12" fill="${COLORS[w]}"/><text x="${lx + 16}" y="${H - 8}">${esc(LABELS[w])}</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

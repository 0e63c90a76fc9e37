"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

const SERIES = [
  { key: "opens", name: "Opens", colour: "var(--chart-1, #2563eb)" },
  { key: "clicks", name: "Clicks", colour: "var(--chart-2, #059669)" },
  { key: "contacts_added", name: "Contacts added", colour: "var(--chart-3, #d97706)" },
  { key: "unsubscribes", name: "Unsubscribes", colour: "var(--chart-4, #dc2626)" },
] as const;

type Point = { period_start: string; opens: number; clicks: number; contacts_added: number; unsubscribes: number };

/** The activity series as lines, one point per day, week or month; the table below holds the same figures. */
export function ActivityChart({ rows }: { rows: Point[] }) {
  const data = rows.map((row) => ({ ...row, label: row.period_start.slice(0, 10) }));
  return (
    <div
      className="h-72 w-full"
      role="img"
      aria-label={`Activity over ${rows.length} periods: opens, clicks, contacts added and unsubscribes`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis
            dataKey="label"
            tickLine={false}
            axisLine={false}
            fontSize={12}
            stroke="var(--muted-foreground)"
            minTickGap={24}
          />
          <YAxis
            allowDecimals={false}
            tickLine={false}
            axisLine={false}
            fontSize={12}
            stroke="var(--muted-foreground)"
          />
          <Tooltip
            contentStyle={{
              background: "var(--popover)",
              border: "1px solid var(--border)",
              borderRadius: 8,
              color: "var(--popover-foreground)",
            }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {SERIES.map((series) => (
            <Line
              key={series.key}
              type="monotone"
              dataKey={series.key}
              name={series.name}
              stroke={series.colour}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** First opens and first clicks per hour, as bars; the figures stay readable in the table below the chart. */
export function EngagementChart({ timeline }: { timeline: { hour: string; opened: number; clicked: number }[] }) {
  const data = timeline.map((point) => ({ ...point, label: `${point.hour.slice(5, 10)} ${point.hour.slice(11, 16)}` }));
  return (
    <div
      className="h-64 w-full"
      role="img"
      aria-label={`Opens and clicks per hour, ${timeline.length} hours with activity`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={12} stroke="var(--muted-foreground)" />
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
            cursor={{ fill: "var(--muted)" }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar
            dataKey="opened"
            name="Opened"
            fill="var(--chart-1, #2563eb)"
            radius={[4, 4, 0, 0]}
            isAnimationActive={false}
          />
          <Bar
            dataKey="clicked"
            name="Clicked"
            fill="var(--chart-2, #059669)"
            radius={[4, 4, 0, 0]}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

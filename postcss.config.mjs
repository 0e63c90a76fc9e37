// Tailwind CSS v4 runs as a PostCSS plugin in Next.js builds.
const config = { plugins: { "@tailwindcss/postcss": {} } };

export default config;

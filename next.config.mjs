/** @type {import('next').NextConfig} */
const nextConfig = {
  // Packages with native/wasm parts or dynamic requires stay outside the server bundle.
  serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'pg', '@prisma/adapter-pg'],
  poweredByHeader: false,
  // Compression belongs to the reverse proxy in front; in-process gzip costs more CPU than the JSON it saves.
  compress: false,
};
export default nextConfig;

// GET /api/health – liveness: answers without touching the database (also the bench's bare route).
export async function GET(): Promise<Response> {
  return new Response('{"status":"ok"}', { headers: { 'content-type': 'application/json' } });
}

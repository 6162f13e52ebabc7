import { handleMcp } from '@/lib/http/mcp';

// /mcp – the Model Context Protocol server for AI agents (Streamable HTTP, stateless; agent bearer token)
export const POST = handleMcp;
export const GET = handleMcp;
export const DELETE = handleMcp;

import { handleMcp } from '@/lib/http/mcp';
import { logged } from '@/lib/http/request-log';

// /mcp – the Model Context Protocol server for AI agents (Streamable HTTP, stateless; agent bearer token)
const mcp = logged('/mcp', handleMcp);
export const POST = mcp;
export const GET = mcp;
export const DELETE = mcp;

import { railCallbackAnswer } from '@/lib/http/rail-callbacks';
import { logged } from '@/lib/http/request-log';

// POST /rails/callbacks – signed status callbacks from the bring-your-own rail (docs/rails.md).
export const POST = logged('/rails/callbacks', railCallbackAnswer);

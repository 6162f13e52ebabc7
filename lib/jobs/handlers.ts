// Importing this module registers every job kind with the queue. Add a domain's jobs module here.
import '../bulk-import/job';
import '../external-accounts/jobs';
import '../payments/settlement';
import '../transfers/settlement';
import '../uma/receive';

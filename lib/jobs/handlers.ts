// Importing this module registers every job kind with the queue. Add a domain's jobs module here.
export {};

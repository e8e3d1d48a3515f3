import type { Role } from '../authProvider';

export interface User {
  id: string;
  name: string | null;
  email: string;
  emailVerified: string | null;
  image: string | null;
  roles: Role[];
  fields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface Account {
  id: string;
  userId: string;
  type: string;
  provider: string;
  providerAccountId: string;
  /** Seconds since the epoch (a bigint column: may arrive as a string). */
  expiresAt: number | string | null;
  tokenType: string | null;
  scope: string | null;
}

export interface Session {
  id: string;
  userId: string;
  expires: string;
  createdAt: string;
  lastSeenAt: string | null;
  userAgent: string | null;
}

export interface DeviceAccessToken {
  id: string;
  userId: string;
  clientId: string;
  createdAt: string;
  lastUsedAt: string | null;
}

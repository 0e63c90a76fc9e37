import {
  BookUser,
  Building2,
  ChartLine,
  ClipboardList,
  Contact,
  CreditCard,
  FileKey2,
  Filter,
  Gauge,
  Globe,
  Inbox,
  LayoutDashboard,
  LayoutTemplate,
  ListChecks,
  MailCheck,
  Megaphone,
  Send,
  ShieldBan,
  Tags,
  Users,
  Webhook,
  Workflow,
  type LucideIcon,
} from "lucide-react";

export interface NavScreen {
  /** Below /w/{workspaceId}; "" is the overview. */
  path: string;
  label: string;
  icon: LucideIcon;
  /** Shown only when the installation allows it (the test mailbox). */
  requires?: "mailbox";
}

/** Every screen of a workspace, in the order of the sidebar. */
export const NAV_GROUPS: { label: string; screens: NavScreen[] }[] = [
  { label: "", screens: [{ path: "", label: "Overview", icon: LayoutDashboard }] },
  {
    label: "Mail",
    screens: [
      { path: "/campaigns", label: "Campaigns", icon: Send },
      { path: "/automations", label: "Automations", icon: Workflow },
      { path: "/templates", label: "Templates", icon: LayoutTemplate },
      { path: "/reports", label: "Reports", icon: ChartLine },
      { path: "/mailbox", label: "Test mailbox", icon: Inbox, requires: "mailbox" },
    ],
  },
  {
    label: "Audience",
    screens: [
      { path: "/contacts", label: "Contacts", icon: Contact },
      { path: "/lists", label: "Lists", icon: ListChecks },
      { path: "/segments", label: "Segments", icon: Filter },
      { path: "/topics", label: "Topics", icon: Megaphone },
      { path: "/forms", label: "Signup forms", icon: ClipboardList },
      { path: "/suppressions", label: "Suppressions", icon: ShieldBan },
      { path: "/attributes", label: "Custom attributes", icon: Tags },
    ],
  },
  {
    label: "Setup",
    screens: [
      { path: "/brands", label: "Brands", icon: Building2 },
      { path: "/domains", label: "Domains", icon: Globe },
      { path: "/deliverability", label: "Deliverability", icon: Gauge },
      { path: "/verified-addresses", label: "Verified addresses", icon: MailCheck },
      { path: "/api-keys", label: "API keys", icon: FileKey2 },
      { path: "/webhooks", label: "Webhooks", icon: Webhook },
      { path: "/members", label: "Members", icon: Users },
      { path: "/billing", label: "Billing", icon: CreditCard },
    ],
  },
];

export const WORKSPACE_ICON = BookUser;

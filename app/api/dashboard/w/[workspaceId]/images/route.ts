import { dashboardUpload } from "@/lib/dashboard/dashboard-route";
import { MAX_IMAGE_BYTES, uploadImage } from "@/lib/images/upload-image";

/** POST an image's bytes; answers its public address for the campaign body. */
export const POST = dashboardUpload(MAX_IMAGE_BYTES, ({ ctx, actor, bytes }) => uploadImage(ctx, actor, bytes));

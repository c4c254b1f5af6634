import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../http/error-responses';
import { COOKIE_SECURITY } from '../../http/openapi';
import { Public } from '../../http/public.decorator';
import { AccountContext, OptionalAccount } from '../../http/account-auth';
import { PAGE_LIMIT_DEFAULT, SlugParamsDto } from '../../http/params';
import { CatalogueGameDto, CataloguePageDto, CatalogueQueryDto, PublicGameDto } from './catalogue.dto';
import { CatalogueService, PublicGame } from './catalogue.service';

@ApiTags('catalogue')
@Controller('api/games')
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Published games, newest first', description: 'Cursor paging: pass `nextCursor` as `cursor` (with the same `query`). `query` searches titles and slugs.' })
  @ApiOkResponse({ type: CataloguePageDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: bad limit, unreadable cursor, or a query of no or more than 100 characters' })
  list(@Query() query: CatalogueQueryDto): Promise<{ games: CatalogueGameDto[]; nextCursor: string | null }> {
    return this.catalogue.list(query.limit ?? PAGE_LIMIT_DEFAULT, query.cursor, query.query);
  }

  @Get(':slug')
  @Public()
  @ApiSecurity({})
  @ApiCookieAuth(COOKIE_SECURITY)
  @ApiOperation({
    summary: 'A published game with its achievements',
    description: 'Public; with the auth_session cookie the caller\'s unlocks are filled in and their secret achievements unmasked.',
  })
  @ApiOkResponse({ type: PublicGameDto })
  @ApiErrors({ 400: 'INVALID_REQUEST: slug outside ^[a-z0-9-]+$ or over 64 characters', 404: 'NOT_FOUND: unknown, unpublished or suspended game' })
  game(@Param() params: SlugParamsDto, @OptionalAccount() account: AccountContext | undefined): Promise<PublicGame> {
    return this.catalogue.game(params.slug, account?.playerId ?? null);
  }
}

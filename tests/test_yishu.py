"""欽定儀禮義疏 (KR1d0037) as sites and Kanripo give it: a 經 piece a line, then blocks that quote
scholars by their full names (layout ``yishu``, :mod:`pipeline.read.yishu`).

The excerpts are of dev chapters only (大射, 鄉飲酒禮, 鄉射禮): a reading site's pages (中华古籍库 on
GitHub Pages, page 46 of 169; 读书之家, 卷七), copied as the browser shows them, and Kanripo's web view
of the 四庫 text (卷九), cut at the page's width with the commentary set a space lower.
"""

from __future__ import annotations

from pipeline.layers import segment_layers
from pipeline.process import DocumentProcessor
from pipeline.read.web import is_title

# 大射 (07), 中华古籍库's page 46 of 钦定仪礼义疏: its content, a line a paragraph, as the page prints it
DASHE = """　　正义郑氏康成曰耦兼取乘矢不敢与大夫拾
　　北面搢三挟一个揖进
　　正义敖氏继公曰揖进当作揖退鄕射云揖退是也案此仪亦于旣适楅南皆左还之时为之
　　大夫与其耦皆适次释弓说决拾袭反位诸公卿升就席
　　正义郑氏康成曰大夫反位诸公卿乃升就席大夫与己上下位【贾疏上大夫与下大夫同是大夫爵】
　　存疑敖氏继公曰大夫旣反位诸公卿乃与之序升公卿之下不言大夫者文脱耳又此上下文皆言卿大夫升就席不应此时独否也然则此有脱文明矣案升惟言公卿则大夫不升矣大夫盖立于三耦之南与再射时大夫先降之义同
　　众射者旣拾取矢皆如三耦遂入于次释弓矢说决拾袭反位【拾取之拾其刼反】
　　正义敖氏继公曰此或言适次或言入于次互文以见其同也
　　右耦皆取矢于楅
　　司射犹挟一个以作射如初一耦揖升如初
　　正义敖氏继公曰此司射作射亦在未取弓矢之时与初作射者微异云如初者谓所作唯上耦而旣作则反位
　　司马升命去侯负侯许诺司马降释弓反位
　　正义敖氏继公曰亦皆如初可知
　　司射与司马交于阶前倚扑于阶西适阼阶下北面请以乐于公公许
　　正义郑氏康成曰请奏乐以为节也始射获而未释获复释获复用乐行之君子之于事始取苟能中课有功终用成法敎化之渐也射用应乐为难孔子曰射者何以听循声而发发而不失正鹄者其惟贤者乎【贾疏射义文】
　　司射反搢扑东面命乐正曰命用乐乐正曰诺
　　正义郑氏康成曰言君有命用乐射也乐正在工南北面　贾氏公彦曰司射在西阶下东面遥命之敖氏继公曰乐正许诺自若北面
　　司射遂适堂下北面视上射命曰不鼔不释上射揖司射退反位乐正命大师曰奏貍首闲若一大师不兴许诺乐正反位奏貍首以射【大音泰貍力之反】
　　正义郑氏康成曰乐正北面受命左还东面命大师貍首逸诗闲若一者调其声之疏数重节　刘氏敞曰驺虞采蘩采苹皆在二南则貍首亦必其俦岂夫子删诗时已亡与或曰貍首鹊巢也篆文貍似鹊首似巢　方氏慤曰此射义所谓饰之以乐也
　　三耦卒射宾待于物如初公乐作而后就物稍属不以乐志其他如初仪卒射如初【属之欲反】
　　正义郑氏康成曰不以乐志君之射仪迟速从心其发不必应乐辟不敏也　敖氏继公曰卒射如初谓公卒射以至宾反位于阶西之仪
　　案其他盖谓赞决赞袒赞拾及授弓受弓之等
　　宾就席诸公卿大夫众射者皆继射释获如初卒射降反位释获者执余获进告左右卒射如初
　　正义敖氏继公曰就席继射释获三事皆如初也降反位指众射之最后者而言以见释获者升告之节也
　　右三射
"""

# the same page further on: a block on its 經's line (…公许正义李氏如圭曰…), 【贾疏…】 twice in one 鄭
# quotation and the compilers' 案 after it, a section's label at the end of a scholar's words (…右彻俎)
DASHE_LATER = """　　总论敖氏继公曰此以下经文与燕礼同者不重释之
　　司马正升自西阶东楹之东北面告于公请彻俎公许正义李氏如圭曰司马正当作司正马字疑衍
　　遂适西阶上北面告于宾宾北面取俎以出诸公卿取俎如宾礼遂出授从者于门外【从才用反】
　　正义敖氏继公曰如宾礼谓各鄕其席取之也诸公南面卿北面射宾而下皆自执俎以出者臣也亦以其从者不得入路门
　　大夫降复位
　　正义郑氏康成曰门东北面位【贾疏下文宾诸公卿入门在西阶下大夫不在西阶下者以言复位其西阶下旧无位故知在门东北面也】　敖氏继公曰大夫降者欲与宾同说屦而升也复位于门东者以诸公卿亦以俎出故也燕礼诸公卿无俎故与大夫降而同立于西阶下
　　案燕礼大夫之降与卿同东面北上者从卿也此时西阶下无卿故大夫复其初位
　　庶子正彻公俎降自阼阶以东
　　正义敖氏继公曰正庶子之长者也燕礼膳宰设公俎故膳宰彻之然则上之设公俎者亦庶子正矣右彻俎
　　宾诸公卿皆入门东面北上
　　正义郑氏康成曰诸公卿不入门而右亦因从宾敖氏继公曰入门入自闑东也入门卽东面变于常位也将与大夫同升宜近之
　　司正升宾宾诸公卿大夫皆说屡升就席公以宾及卿大夫皆坐乃安
　　正义敖氏继公曰说屦亦于阶下
　　案向者立司正而命曰以我安安之使射也然其意则直至射毕彻俎说屦升堂乃为安耳故至此不待有命而云乃安遥继前文而终言之
　　羞庶羞
　　正义郑氏康成曰或有炮鼈脍鲤【贾疏六月诗笺以吉甫远从镐来饮之酒加其珍美之味所以极劝之】雉兎鹑鴽【贾疏公食大夫二十豆有此四者】案大射重于燕则狗胾醢之外或有所加然亦未必多也地官牛人职飨食宾射共其膳羞之牛则国君宾射当以牛牲以牛牲则自膷臐膮而下亦可羞矣
　　大夫祭荐司正升受命皆命公曰众无不醉宾及诸公卿大夫皆兴对曰诺敢不醉皆反位坐
　　正义郑氏康成曰皆命者命宾命诸公命卿大夫皆乡其位
　　右说屦升坐
"""

# and further on: 【辨音遍下并同】 and a block after a 經 piece, the 注's readings (【注媵觯今文…】), a
# compilers' remark on a reading and their 案 after a 經 piece (…【觚亦当作觯】案燕礼…)
DASHE_NOTES = """　　辩献士士旣献者立于东方西面北上乃荐士【辨音遍下并同】正义郑氏康成曰士旣献易位者以卿大夫在堂也案燕礼注云尊之此注云卿大夫在堂互相足
　　祝史小臣师亦就其位而荐之
　　正义郑氏康成曰亦者亦士也辩献乃荐也祝史门东北面东上　敖氏继公曰此献史盖小史也大史释获向已受献
　　案祝史在门东燕礼之位也此礼初入门大史小史位于千干之东北祝亦当存焉至将射史乃至所设中之西以后设中执算释获小史于此有事及此主人献之注云祝史门东北面东上则是射毕大史小史祝俱各复其门东之位也
　　主人就士旅食之尊而献之旅食不拜受爵坐祭立饮主人执虚爵奠于篚复位
　　案燕礼不言奠篚复位此详之
　　右主人献士
　　宾降洗升媵觯于公酌散下拜公降一等小臣正辞宾升再拜稽首公答再拜宾坐祭卒爵再拜稽首公答再拜宾降洗象觚升酌膳坐奠于荐南降拜小臣正辞宾升成拜公答拜宾反位【注媵觯今文觯为觚公答拜无再拜】
　　正义郑氏康成曰象觚当为觯
　　右宾媵觯于公
　　公坐取宾所媵觚兴唯公所赐受者如初受酬之礼降更爵洗升酌膳下再拜稽首小臣正辞升成拜公答拜乃就席坐行之有执爵者唯受于公者拜【觚亦当作觯】案燕礼酌膳下惟曰下拜此曰下再拜稽首者凡言成拜皆降时己再拜稽首升复再拜稽首故经于此见之
　　司正命执爵者爵辩卒受者兴以酬士大夫卒受者以爵兴西阶上酬士士升大夫奠爵拜士答拜大夫立卒爵不拜实之士拜受大夫拜送士旅于西阶上辩士旅酌
　　右公为士举旅
"""

# 鄉飲酒禮 (04), 读书之家's 卷七: its title and author line, blank lines between paragraphs, a page that
# opens inside a bracketed 疏, and a block's paragraph broken in two (…自介右受之 | 自第二已下…)
XIANGYIN_SITE = """钦定仪礼义疏 - 卷七

作者: 鄂尔泰13,378】字 目 录

是姓若单言某则是字】 贾氏公彦曰宾主及介旅酬不监以其习礼也 敖氏继公曰相旅谓相旅酬之礼或言旅或言酬互见耳宾酬主人主人酬介司正不升则惟相之于下耳尊之也若有遵者则先众宾酬之既则司正乃升

案宾介主人之酬司正不相疏本使能之意为説敖縁相拜之法为説兼之而义备矣

司正退立于序端东面

正义郑氏康成曰辟受酬者又便其赞上赞下也始升相西阶西北面【贾疏西阶西即众受酬者立处】 敖氏继公曰序端东面惟退而俟事之时则然自是以后于凡作受酬者则皆少违此位堂上者北面作之堂下者南面作之既则皆复此位也

案序端视西阶西为益西司正始升相得立于西阶西者以受酬者自介右也自此以后则众受酬者受自左而西阶西为受酬者之位矣故退立序端以辟之凡在堂上者司正作之则降席以就西阶西之位在堂下者司正作之则升自西阶以就西阶西之位

受酬者自介右

正义郑氏康成曰由介东也【贾疏北面以东为右】尊介使不失故位 敖氏继公曰受介酬者独居其右与他受酬者不同明介尊不与众宾序也自介右则介当东南面酬之若遵者受介酬亦然

众受酬者受自左【注今文无众酬】

正义郑氏康成曰后将受酬者皆由西变于受介也贾氏公彦曰众宾之内为首者一人自介右受之

自第二已下并堂下众宾皆自左受之 敖氏继公曰受自左宾党受酬者之正位也

案酬有主道而西为宾方其为介所酬者受于介右将使介仍居宾方也其受酬于为介所酬者已下则受于酬者之左将使酬者得修主道也

拜兴饮皆如宾酬主人之礼

正义郑氏康成曰嫌以下异也 敖氏继公曰惟受酬者立于酬者之西及酬者既实觯进西南面为异

辩卒受者以觯降坐奠于篚司正降复位【辩音徧】
"""

# 鄉射禮 (05), Kanripo's web view of the 四庫 text: cut at 21 characters, the blocks a space lower, page
# labels, the notes in small type without brackets (注今 | 文俟為立, 還音旋, 賈疏 inside 鄭's words)
XIANGSHE_KANRIPO = """KR1d0037 欽定儀禮義疏-清-高宗弘曆 (master)


[011-1a]
欽定四庫全書
欽定儀禮義疏卷九
 鄉射禮第五之二
司馬命獲者執旌以負侯獲者適侯執旌負侯而俟注今
 文俟為立
 正義鄭氏康成曰欲令射者見侯與旌深有志於中
敖氏繼公曰使之執旌於侯中以示射者若謂中


 侯則舉此而言獲然 賈氏公彦曰俟謂待司馬命
 去侯
[011-1b]
司射還當上耦西面作上耦射還音旋
 正義鄭氏康成曰還左還也作使也賈疏上耦位在司射之西南司
 射還與相當故知左還 敖氏繼公曰當謂當上下射之閒
司射反位上耦揖進上射在左並行當階北面揖及階
揖上射先升三等下射從之中等上射升堂少左下射
升上射揖並行皆當其物北面揖及物揖皆左足履物
還視侯中合足而俟還音旋
[011-2a]
 正義賈氏公彦曰司射反位反中西南東面位也上
 射升堂少左辟下射升階也 敖氏繼公曰上射在
 左以當就上物也上射差尊故先升中等空一等也
 同階升者前後相當宜空一等以相逺為敬與異階
 升者不同其降亦然少左者為下射升堂當在右也
 不云不方足省文耳合足左右並立於横畫即上所
 謂正足也 鄭氏康成曰並併也中猶閒也
 案此儀一如誘射之儀但於其行也言左言並於其
 升也言先言從則以誘射一人而射耦二人故也凡
[011-2b]
 北面以東為右西為左南面則東為左西為右故上
 射升時屬左及還視侯中則於右物矣下射升時屬
 右及還視侯中則於左物矣俟謂俟司射之命
司馬適堂西不決遂袒執弓
 正義敖氏繼公曰惟云適堂西是猶未出於司射之
 南也不決遂變於大射也云執弓是不挾也云袒執
 弓則固不決遂矣乃先言之者嫌袒必決遂也經亦
[011-3a]
 或言袒以包二者故以此明之
 案司馬亦執弓者以命去侯命取矢當揚揖其弓以
 為號令至設楅又當以為畢也
 存疑鄭氏康成曰不決遂因不射不備
"""

# the same passage as 读书之家 gives it (卷九), in simplified characters, a paragraph a line, with the 四庫's
# catalogue tag before the juan (<经部,礼类,…>) and a glyph the site could not show (?)
XIANGSHE_SITE = """<经部,礼类,仪礼之属,钦定仪礼义疏
钦定四库全书
钦定仪礼义疏卷九
乡射礼第五之二
司马命获者执旌以负侯获者适侯执旌负侯而俟【注今文俟为立】
正义郑氏康成曰欲令射者见侯与旌深有志于中敖氏继公曰使之执旌于侯中以示射者若谓中
侯则举此而言获然 贾氏公彦曰俟谓待司马命去侯
司射还当上耦西面作上耦射【还音旋】
正义郑氏康成曰还左还也作使也【贾疏上耦位在司射之西南司射还与相当故知左还】 敖氏继公曰当谓当上下射之闲
司射反位上耦揖进上射在左并行当阶北面揖及阶揖上射先升三等下射从之中等上射升堂少左下射升上射揖并行皆当其物北面揖及物揖皆左足履物还视侯中合足而俟【还音旋】
正义贾氏公彦曰司射反位反中西南东面位也上射升堂少左辟下射升阶也 敖氏继公曰上射在左以当就上物也上射差尊故先升中等空一等也同阶升者前后相当宜空一等以相逺为敬与异阶升者不同其降亦然少左者为下射升堂当在右也不云不方足省文耳合足左右并立于横画即上所谓正足也 郑氏康成曰并并也中犹闲也
案此仪一如诱射之仪但于其行也言左言并于其升也言先言从则以诱射一人而射耦二人故也凡北面以东为右西为左南面则东为左西为右故上射升时属左及还视侯中则于右物矣下射升时属右及还视侯中则于左物矣俟谓俟司射之命
司马适堂西不决遂袒执弓
正义敖氏继公曰惟云适堂西是犹未出于司射之南也不决遂变于大射也云执弓是不挟也云袒执弓则固不决遂矣乃先言之者嫌袒必决遂也经亦或言袒以包二者故以此明之
案司马亦执弓者以命去侯命取矢当?揖其弓以为号令至设楅又当以为毕也
存疑郑氏康成曰不决遂因不射不备
辨正贾氏公彦曰大射司马正不射而袒又复决遂但以不射不挟矢
"""

# 特牲饋食禮 (15), 國學大師's 四庫全書 page of 卷三十四 (traditional characters): the site's three menus of
# items between bars, its breadcrumb (首页 > 四库全书 >), the book's name as the site spells it, and the
# chapter's opening blocks, a blank line between paragraphs
TESHENG_SITE = """明清实录 | 二十四史 | 四库全书 | 古今图书集成 | 历史人物 | 说文解字 | 成语词典 | 甲骨文合集 | 殷周金文集成 | 象形字典 | 十三经索引 | 字体转换器 | 篆书识别 | 近义反义词 | 对联大全 | 家谱族谱查询 | 哈佛古籍

首页|国学书库|影印古籍|诗词宝典|二十四史|汉语字典|汉语词典|部件查字|书法大师|甲骨文|历史人物|历史典故|年号|姓氏|民族|图书集成|印谱|丛书|中医中药|软件下载

译文|四库全书|全文检索|古籍书目|国学精选|成语词典|康熙字典|说文解字|字形演变|金 文|历史地名|历史事件|官职|知识|对联|石刻墓志|家谱|对联|历史地图|会员中心

首页 > 四库全书 >

钦定礼仪义疏

38-欽定儀禮義疏卷三十四
  欽定儀禮義疏卷三十四

  特牲饋食禮第十五之一

  正義鄭氏康成曰謂諸侯之士祭祖禰於五禮屬吉禮 敖氏繼公曰此篇言士祭其祖之禮 賈氏公彦曰祭法云適士二廟官師一廟 孔氏穎達曰若大宗子為士得立祖禰二廟也 吳氏澄曰此禮大戴第七小戴第十三别錄第十五注不見次第補之

  案經文筮日筮尸明云適其皇祖某子則此篇當是適士祭其祖之禮注兼祖禰言者以適士二廟祭其祖之禮如是則祭其禰之禮亦當如是且以官師祖禰共廟而論祭其祖之禮如適士則祭其禰之禮亦當如適士可推而知也

  存疑賈氏公彦曰祭無問一廟二廟皆先祭祖後祭禰無問尊卑廟數多少皆同日而祭以此及少牢惟筮一日明不别日祭也
"""

# 中华古籍库's pages 67 (覲禮, 10) and 102 (特牲, 15), as far as the copy could go exactly: every paragraph
# indented alike but the page's first line, which begins where the page before ended
JINLI_PAGE = """存疑敖氏继公曰凡傧使者必于受命之处则此傧之亦当在舍门外
　　右赐舍
　　天子使大夫戒曰某日伯父帅乃初事【注今文帅作率】
　　正义郑氏康成曰大夫者卿为讶者也掌讶职曰凡讶者宾客至而徃诏相其事戒犹告也告使顺循其事也初犹故也【贾疏四时朝觐自是寻常故使恒循故常之事也】
　　存疑敖氏继公曰此戒之亦于舍门外其面位与赐舍同
　　案侯氏已在舍应有出门再拜迎入之仪使者升堂东面致命侯氏东阶上西面听之旣乃降两阶之闲北面再拜稽首
　　侯氏再拜稽首
　　正义郑氏康成曰受觐日也
　　案盛世事几综理朝廷不久畱宾故列侯各无废事宾见有时卽虞书乃日觐四岳羣牧之义也王制诸侯礿则不禘禘则不尝尝则不烝烝则不礿为述职故缺一时之祭此自尊王之礼宜然亦由朝觐有常期故前后时祭得举耳
　　右戒觐日
　　诸侯前朝皆受舍于朝同姓西面北上异姓东面北上【朝直遥反余并同】
　　正义郑氏康成曰言诸侯者明来朝者众矣顾其入觐不得并耳【贾疏上注云言侯氏者明国殊舍异礼不凡之于此言诸侯凡之者以其诸国同时遣上介故言来朝者众若其行礼自有先后故云入觐不得并】受舍于朝天子使掌次为之诸侯上介先朝受焉【贾疏下文上介皆奉其君之旂置于宫知此亦是使上介也】此觐也言朝者其来之心犹若朝也【贾疏大宗伯注朝之言朝欲其来之早觐之言勤欲其勤王事各举一边言其实早来勤王通冇故变觐言朝】分别同姓异姓受之将有先后也春秋传曰寡人若朝于薛不敢与诸任齿则周礼先同姓【贾疏隐十一年左传文】敖氏继公曰朝犹觐也前朝者先觐日也此舍如庐舍之舍谓觐时待事之处也若诸侯相朝则但授次而已聘礼记所云君之次者是也　李氏心传曰受舍于朝所谓外朝也　贾氏公彦曰此经同姓西面异姓东面曲礼下云天子当依而立诸侯北面而见天子曰觐彼此皆是觐礼彼诸侯皆北面而不辨同异姓与此不同者此谓外为位时彼谓入见天子时存疑郑氏康成曰受次于文王庙门之外聘礼记曰宗人受次次以帷少退于君之次则是次也言舍者尊舍也
　　案受舍于朝者谓听王官之所颁处也掌次云诸侯朝觐则张大次小次注云与诸侯张之是也其地当在皋门以内库门以外属外朝之东西一以来觐者众余地能容一以宾车不入大门下行为近也若庙外则觐日陈摈介又诸侯亦当有从臣执币马者在焉占地多矣且觐尚严庙外宜肃苟尽张次于此从衞纷嚣非所以为敬也受舍之舍与赐舍之舍别赐舍之舍馆舍也有屋宇盖司空之属掌之受舍之舍次舍也以帷幕天官之属掌之注引次以帷于义得矣云文王庙门之外则非是同异姓分东西面者盖放庙中助祭之位以兄弟之党宾之党殊之
　　右受舍于朝
　　侯氏裨冕释币于祢【裨贫医反音脾祢乃礼反】
"""
TESHENG_PAGE = """正义郑氏康成曰右人谓主人及二賔既错皆西面俟也　敖氏继公曰鼎错于东方西面顺主人之面位也上者亦南扵洗西右人既委扃皆西面俟于鼎东
　　赞者错俎加匕
　　正义郑氏康成曰賛者执俎及匕从鼎入者其错俎西缩加匕东柄【贾防少牢云俎皆设于鼎西西肆又云匕皆加于鼎东枋则此可知】既则退而左人北面也【贾防俎从于鼎西其人当北面于其南载之便昏礼亦云北面载执而俟】　敖氏继公曰此賛者盖三人其二人各合执二俎一人兼执三匕与匕俎取之扵东塾东执以上而错俎于鼎西加匕于鼎上而肵俎亦在豕俎之北也知取匕俎于东塾东者士虞匕俎在西塾之西此吉祭当反之也　毛氏苌曰匕所以载鼎实
　　通论陈氏祥道曰匕之别有四有黍稷之匕有牲体之匕有疏匕有丧匕三匕以棘丧匕以桑少牢廪人之所摡黍稷之匕也雍人之所摡牲体之匕也牲体之匕挑匕也其制则黍稷之匕小于挑匕挑匕又小于疏匕何则敦之量不过三豆髙不过一尺则黍稷之匕小矣挹之以挑匕然后注于疏匕者三则疏匕大矣
　　乃朼【朼音匕】
　　正义郑氏康成曰右人也左人载之尊者于事指使可也
　　佐食升肵俎鼏之设于阼阶西【肵音祈注古文鼏皆作密敖云鼏当作幂】正义郑氏康成曰肵谓心舌之俎也郊特牲曰肵之为言敬也言主人之所以敬尸之爼　孔氏頴逹曰尸祭馔讫祝取牢心舌载于肵爼设于馔北尸每食牲体反置于肵爼是主人敬尸之爼　敖氏继公曰以少牢礼例之则此亦右人先升心舌而佐食载惟言佐食升之省文也设之盖亦西缩
　　案肵腊加幂以其后设也正爼不幂升毕即设也其除幂也当在主人羞爼之时而即委之于阼阶西与
　　卒载加匕于鼎
　　正义郑氏康成曰已载毕亦加焉【贾疏主人匕牲体宗人以毕助之匕讫加于鼎则宗人毕亦加于鼎可知】
　　主人升入复位
　　正义敖氏继公曰賔朼者于是亦复位
　　爼入设于豆东鱼次腊特于爼北
　　正义郑氏康成曰入设爼载者【贾防经卒载下即云入设眀是载者设之】腊特馔要方也凡馔必方者眀食味人之性所以正【贾防豆在神防之前豕俎入设于豆东鱼俎又次其东若腊俎复在东则馔不得方矣故腊俎特者取其方也】　敖氏继公曰少牢礼云序升自西阶相从入
　　主妇设两敦黍稷于爼南西上及两铏芼设于豆南南陈【芼茫报友】
　　正义敖氏继公曰铏不言北上者其实同也亦先设北者宗妇不賛敦铏者辟内子礼也凡敦铏皆特执于少牢备见之　郑氏康成曰宗妇不賛铏敦者以其少可亲之芼菜也【贾防少牢主妇设金敦宗妇賛三敦以其多故使宗妇賛此士祭礼二敦少故不使宗妇赞主妇可亲之也若然少牢佐食賛铏宗妇不赞铏此并云宗妇者以有司彻主妇亚献尸取一羊铏奠于韭菹西主妇賛者执豕铏以从又主妇致爵于主人主妇设二铏与糗脩如尸礼是也】
　　案上经两敦陈于西堂主妇当出自东房取诸西堂入室乃设之此不言自东房互见少牢也周官大祭祀之粢盛小宗伯诏六宫之人共奉之世妇主差择之其爨在西堂下小宗伯莅之饎人炊之舍人实之陈于堂西小祝逆之后亲设之九嫔賛之少牢主妇设一敦余三敦则妇賛者执以授主妇主妇设之士妻宗妇不賛则敦与铏皆主妇自反以取之矣虽曰敦少亦以眀士礼之杀也敖氏谓不賛敦与铏辟内子礼可与郑注相备
　　祝洗酌奠奠于铏南遂命佐食啓防佐食启防郤于敦南出立于戸西南面【防如字】
　　正义郑氏康成曰酌奠奠其觯也后酌者酒尊要成也少牢馈食礼启防乃奠之　敖氏继公曰酌奠酌其所奠之酒也不云酒而云奠因事名之　贾氏公彦曰少牢啓防乃奠此既奠乃啓防者彼大夫礼此士礼相变也　李氏如圭曰防敦盖也郤仰也　郝氏敬曰户西南面士虞记所谓负依
　　案酌于户东之壶以奠也此奠觯尸坐执之祭之啐之奠之至嗣举奠讫洗酌尸受之又祭之啐之奠之与他酬酒之觯异铏南即防之西
　　主人再拜稽首祝在左
　　正义郑氏康成曰祝在左当为主人释辞于神也祝祝曰孝孙某敢用刚鬛嘉荐普淖用荐某事于皇祖某子尚飨【贾防引少牢祝祝已下者见迎尸前释孝子辞也】　敖氏继公曰主人拜为食具也于此乃云祝在左则向者南面信矣祝在左説见聘礼
　　卒祝主人再拜稽首
　　正义敖氏继公曰此拜为已祝也
　　案九拜惟稽首最重此经凡五节始防尸尸许诺而稽首成其为尸也继设祭祝祝两稽首冀其来飨也既尸入祝飨而稽首喜其格也既酳尸尸亲嘏而稽首拜其福也
　　右设馔祝神











　　钦定仪礼义疏卷三十四
<经部,礼类,仪礼之属,钦定仪礼义疏>
　　钦定四库全书
　　钦定仪礼义疏卷三十五
　　特牲馈食礼第十五之二
　　祝迎尸于门外
　　正义郑氏康成曰尸自外来代主人接之就其次而请不拜不敢与尊者为礼周官掌次凡祭祀张尸次贾氏公彦曰祝出就次尸乃出次祝迎之入门也敖氏继公曰迎尸不拜者礼不主于巳代主人迎
　　之耳其或有拜妥尸之类乃从于主人为之也门谓庙门
　　主人降立于阼阶东
　　正义郑氏康成曰主人不迎尸成尸尊尸所祭者之孙也祖之尸则主人乃宗子祢之尸则主人乃父道事神之礼庙中而已出迎则为厌【敖氏继公曰注厌字盖用丧服传文也似失其义欲改作屈】　敖氏继公曰阼阶东亦直序西面主人位于此则子姓兄弟在主人之南者其亦南于洗西与
　　案主人降在尸入之先亦所以迎之也特不出门外耳立于阼东主位也
　　通论贾氏公彦曰案祭统云君迎牲而不迎尸别嫌也尸在庙门外则疑于臣在庙中则全于君君在庙门外则疑于君入庙门则全于臣全于子士虽无君道亦尊尸主人不迎　方氏慤曰尸者神象庙门之外以人道为尚庙门之内以神道为尚凡迎之礼必出门焉故迎牲而不迎尸
　　尸入门左北面盥宗人授巾
　　正义郑氏康成曰侍盥者执其器就之执箪者不授巾贱也宗人授巾庭长尊少牢礼云祝先入门右尸入门左　贾氏公彦曰上经陈盥在门右今尸入门左尸尊不就盥槃匜巾等乡门左就之
　　案周官大祝逆尸小祝沃尸盥大夫士祝一人而巳少牢礼宗人沃盥此篇宗人授巾则沃盥者盖羣执事
　　尸至于阶祝延尸尸升入祝先主人从
　　正义郑氏康成曰延进也在后诏侑曰延礼器所谓诏侑武方者也【贾疏彼注武无也若檀弓子事父母左右就养无方也】少牢馈食礼曰尸升自西阶入祝从主人升自阼阶祝先入主人从　贾氏公彦曰士虞礼尸谡祝前乡尸郑注云前道也祝道尸必先乡之为之节彼祝在尸前道之此则在尸后诏之故云延也　孔氏颖达曰尸神象事之如祖考故祝在前道之在后赞之郑行苇笺又云在前曰引在旁曰翼
　　右尸入
　　尸即席坐主人拜妥尸尸答拜
　　正义孔氏颖达曰古者立尸今坐尸虑尸之不自安也拜尸使安坐
　　案妥尸解已见士虞礼
　　执奠祝飨主人拜如初
　　正义孔氏頴达曰祝先奠爵于铏南尸入即席而举之敖氏继公曰飨飨神也凡飨祝之辞虽或言于尸之
　　前实主为神也如初再拜稽首也　郑氏康成曰飨劝彊之也其辞取于士虞记则宜云孝孙某圭为孝荐之飨旧説云明荐之【贾疏引旧説证圭为洁明之义　敖氏继公曰注引旧説盖据戴礼而言】案于尸坐而又祝飨象神之来假也自此而九饭而三献加爵至于利成所谓飨之也士虞不飨丧祭礼畧也少牢不飨大夫礼变于士也
"""


class _ByOpening:
    """The layer of the segment whose text opens with a key."""

    def __init__(self, segments) -> None:
        self.segments = [(s.text.strip(), s.layer) for s in segments]

    def __getitem__(self, opening: str) -> str:
        found = [layer for text, layer in self.segments if text.startswith(opening)]
        assert len(found) == 1, (opening, found)
        return found[0]


def _layers(text: str) -> tuple[str, _ByOpening]:
    result = segment_layers(text)
    return result.layout, _ByOpening(result.segments)


def _outside_jing(out: dict) -> list[dict]:
    jing = [(s["start"], s["end"]) for s in out["segments"] if s["layer"] == "JING"]
    return [a for a in out["actions"] if not any(s <= a["start"] and a["end"] <= e for s, e in jing)]


def test_each_scholar_quoted_by_full_name_is_read_in_his_layer():
    """鄭氏康成曰 quotes the 注, 賈氏公彦曰 and 【贾疏…】 the 疏; 敖氏继公曰, 刘氏敞曰, 方氏慤曰 and the
    compilers' 案 are OTHER, a section's label (右三射) too, and the sounds of characters in brackets
    (【大音泰貍力之反】). The model had read the page line by line and cut it into fragments of every
    layer (71 tuples, 23 of them from the commentary; now 52, every one from the 經)."""
    layout, layers = _layers(DASHE)
    assert layout == "yishu"
    assert layers["北面搢三挟一个"] == "JING" and layers["大夫与其耦皆适次"] == "JING"
    assert layers["耦兼取乘矢不敢与"] == "ZHU" and layers["大夫反位诸公卿乃"] == "ZHU"
    assert layers["上大夫与下大夫同"] == "SHU" and layers["司射在西阶下东面"] == "SHU"
    assert layers["敖氏继公曰揖进当"] == "OTHER" and layers["刘氏敞曰驺虞采蘩"] == "OTHER"
    assert layers["方氏慤曰此射义所"] == "OTHER" and layers["案其他盖谓赞决赞"] == "OTHER"
    assert layers["右耦皆取矢于楅"] == "OTHER" and layers["右三射"] == "OTHER"
    assert layers["大音泰貍力之反"] == "OTHER" and layers["拾取之拾其刼反"] == "OTHER"
    assert layers["司射遂适堂下北面"] == "JING"
    from pipeline.layers.markers import SECTION_LABEL

    assert SECTION_LABEL.fullmatch("右取矢告获如初") and not SECTION_LABEL.fullmatch("右執簫南揚弓命去侯")  # the right hand: 經
    out = DocumentProcessor().process({"text": DASHE, "meta": {"source": "yishu46.txt"}})
    assert _outside_jing(out) == []
    assert {(a["actor"], a["verb"]) for a in out["actions"]} >= {("司射", "請"), ("公", "許"), ("大师", "興")}
    assert [a["negated"] for a in out["actions"] if a["verb"] == "興"] == [True]  # 大师不兴


def test_a_block_on_its_jing_line_and_the_notes_after_a_jing_piece():
    layout, layers = _layers(DASHE_LATER)
    assert layout == "yishu"
    assert layers["司马正升自西阶东"] == "JING" and layers["李氏如圭曰司马正"] == "OTHER"
    assert layers["敖氏继公曰此以下经文"] == "OTHER"  # after 总论, the block's kind: a marker
    assert layers["或有炮鼈脍鲤"] == "ZHU" and layers["雉兎鹑鴽"] == "ZHU"
    assert layers["六月诗笺以吉甫远"] == "SHU" and layers["公食大夫二十豆有"] == "SHU"
    assert layers["案大射重于燕则狗"] == "OTHER" and layers["羞庶羞"] == "JING"
    assert layers["敖氏继公曰正庶子"] == "OTHER"  # …右彻俎 at its end stays in his words
    assert layers["右说屦升坐"] == "OTHER" and layers["从才用反"] == "OTHER"
    layout, layers = _layers(DASHE_NOTES)
    assert layout == "yishu"
    assert layers["辩献士士旣献者立"] == "JING" and layers["辨音遍下并同"] == "OTHER"
    assert layers["士旣献易位者以卿"] == "ZHU" and layers["案燕礼注云尊之此"] == "OTHER"
    assert layers["媵觯今文觯为觚公"] == "ZHU"  # 【注…】: the 注's record of the other text's reading
    assert layers["觚亦当作觯"] == "OTHER" and layers["案燕礼酌膳下惟曰"] == "OTHER"
    assert layers["公坐取宾所媵觚兴"] == "JING" and layers["右宾媵觯于公"] == "OTHER"
    for text in (DASHE_LATER, DASHE_NOTES):
        out = DocumentProcessor().process({"text": text, "meta": {"source": "yishu46.txt"}})
        assert out["actions"] and _outside_jing(out) == []


def test_a_site_copy_with_its_title_and_a_block_broken_over_two_paragraphs():
    result = segment_layers(XIANGYIN_SITE)
    assert result.layout == "yishu"
    assert [XIANGYIN_SITE[r.start:r.end][:3] for r in result.removed if r.reason == "site"] == ["作者:"]
    layers = _ByOpening(result.segments)
    assert layers["钦定仪礼义疏 -"] == "OTHER"
    assert layers["众宾之内为首者一"] == "SHU" and layers["自第二已下并堂下"] == "SHU"  # 賈 goes on
    assert layers["敖氏继公曰受自左"] == "OTHER" and layers["今文无众酬"] == "ZHU" and layers["辩音徧"] == "OTHER"
    assert layers["司正退立于序端东"] == "JING" and layers["辩卒受者以觯降坐"] == "JING"
    assert is_title("钦定仪礼义疏 - 卷七") and is_title("钦定仪礼义疏 - 第 46 页/共 169 页")
    assert not is_title("司正退立于序端东面")


def test_kanripo_view_cut_at_the_page_width_with_the_commentary_set_lower():
    """A line set lower goes on with the block or note above it; the notes in small type have no
    brackets: 注今 at a line's end goes on as 文俟為立 (the 注), 還音旋 ends its 經 piece, 賈疏 inside 鄭's
    words opens the 疏."""
    result = segment_layers(XIANGSHE_KANRIPO)
    assert result.layout == "yishu"
    segments = [(s.layer, s.text.strip()) for s in result.segments]
    assert ("JING", "司馬命獲者執旌以負侯獲者適侯執旌負侯而俟") in segments
    assert ("ZHU", "文俟為立") in segments and ("SHU", "去侯") in segments
    assert ("OTHER", "還音旋") in segments and ("JING", "還視侯中合足而俟") in segments
    assert ("SHU", "上耦位在司射之西南司") in segments and ("SHU", "射還與相當故知左還") in segments
    assert ("OTHER", "侯則舉此而言獲然") in segments  # 敖's words, wrapped
    assert ("OTHER", "升也言先言從則以誘射一人而射耦二人故也凡") in segments  # the 案, wrapped over a page label
    assert ("ZHU", "不決遂因不射不備") in segments  # 存疑: still 鄭's words
    jing = [t for layer, t in segments if layer == "JING"]
    assert jing == ["司馬命獲者執旌以負侯獲者適侯執旌負侯而俟", "司射還當上耦西面作上耦射",
                    "司射反位上耦揖進上射在左並行當階北面揖及階", "揖上射先升三等下射從之中等上射升堂少左下射",
                    "升上射揖並行皆當其物北面揖及物揖皆左足履物", "還視侯中合足而俟", "司馬適堂西不決遂袒執弓"]
    out = DocumentProcessor().process({"text": XIANGSHE_KANRIPO, "meta": {"source": "KR1d0037_009.txt"}})
    assert out["actions"] and _outside_jing(out) == []


def _page(body: str) -> str:
    """The page around its text as the site serves it (its stylesheet keeps the text's line breaks:
    .content { white-space: pre-wrap }), the navigation's links and the pagination shortened."""
    return ("<!DOCTYPE html>\n<html>\n <head>\n  <meta charset=\"utf-8\"/>\n  <title>\n   钦定仪礼义疏 - 第 46 页/共 169 页\n"
            "  </title>\n  <style>\n   body {\n        padding-top: 60px !important;\n        text-align: justify;\n    }\n"
            "    \n            font-family: 'Georgia', serif;\n            text-align: justify;\n        }\n"
            "        h1 {\n            font-size: 24px;\n        }\n        .content {\n            white-space: pre-wrap;\n"
            "            word-wrap: break-word;\n        }\n        .pagination {\n            text-align: center;\n        }\n"
            "  </style>\n </head>\n <body>\n  <div class=\"modern-navbar\" style=\"\n    position: fixed;\n\">\n"
            "   <nav style=\"\n        display: flex;\n    \">\n    <div class=\"nav-brand\">\n"
            "     <a href=\"/\" style=\"color: inherit; text-decoration: none;\">\n      🏯 中华古籍库\n     </a>\n    </div>\n"
            "    <div class=\"nav-links\">\n     <a href=\"/儒藏/index.html\">\n      <span style=\"font-size:1.1em\">\n"
            "       📚\n      </span>\n      儒藏\n     </a>\n    </div>\n   </nav>\n  </div>\n"
            "  <h1>\n   钦定仪礼义疏 - 第 46 页/共 169 页\n  </h1>\n  <div class=\"content\">\n   " + body.strip() + "\n  </div>\n"
            "  <div class=\"pagination\">\n   <a href=\"钦定仪礼义疏_page45.html\">\n    上一页\n   </a>\n   <span>\n    ...\n"
            "   </span>\n   <a href=\"钦定仪礼义疏_page45.html\">\n    45\n   </a>\n   <span class=\"current-page\">\n    46\n"
            "   </span>\n   <a href=\"钦定仪礼义疏_page47.html\">\n    下一页\n   </a>\n  </div>\n  <div class=\"pagination\">\n"
            "   <a href=\"index.html\">\n    返回目录\n   </a>\n  </div>\n </body>\n</html>\n")


def test_a_page_whose_stylesheet_keeps_the_line_breaks_is_read_line_by_line():
    """The page prints its text in a <div> whose class the stylesheet sets to white-space: pre-wrap:
    the browser shows a line a paragraph, and so does the page's view (it had run every line into one,
    which no layout could read: the model cut it into fragments)."""
    page = _page(DASHE)
    result = segment_layers(page, "yishu46.html")
    assert result.layout == "html/yishu"
    text_result = segment_layers(DASHE)
    assert [(s.layer, s.text) for s in result.segments if s.text != "钦定仪礼义疏 - 第 46 页/共 169 页"] == [
        (s.layer, s.text) for s in text_result.segments]
    # the same page without its stylesheet: the text runs on, as a browser would show it
    unstyled = segment_layers(page.replace("white-space: pre-wrap;", ""), "yishu46.html")
    assert unstyled.layout != "html/yishu"


def test_a_site_copy_and_kanripo_s_view_of_one_passage_read_alike():
    """Two copies of 卷九 (鄉射禮), one simplified a paragraph a line, one traditional cut at the page's
    width with the notes in small type: the same 經, 注 and 疏, piece for piece; the site's catalogue tag
    (<经部,礼类,仪礼之属,钦定仪礼义疏>) is furniture (it had been 經)."""
    from pipeline.text.normalise import normalise_str

    site, kanripo = segment_layers(XIANGSHE_SITE), segment_layers(XIANGSHE_KANRIPO)
    assert [XIANGSHE_SITE[r.start:r.end][:4] for r in site.removed if r.reason == "site"] == ["<经部,"]

    def layer_text(result, layer: str) -> str:
        # the site turned 閒 (間, "between") into 闲 ("leisure"): 中猶閒也
        return normalise_str("".join(s.text for s in result.segments if s.layer == layer)).replace("\n", "").replace("闲", "间")

    for layer in ("JING", "ZHU"):
        assert layer_text(site, layer) == layer_text(kanripo, layer), layer
    # the site's excerpt goes on one block further (辨正賈氏公彦曰大射司馬正不射而袒…)
    assert layer_text(site, "SHU").startswith(layer_text(kanripo, "SHU"))
    assert layer_text(site, "SHU")[len(layer_text(kanripo, "SHU")):] == "大射司马正不射而袒又复决遂但以不射不挟矢"


def test_a_site_s_menus_and_breadcrumb_are_furniture():
    """The three menus (明清实录 | 二十四史 | …) and the breadcrumb had been 經, with tuples (史人 反 from
    近义反义词, 对 from 对联); 钦定礼仪义疏 alone is a title."""
    result = segment_layers(TESHENG_SITE)
    assert result.layout == "yishu"
    assert [TESHENG_SITE[r.start:r.end][:4] for r in result.removed if r.reason == "nav"] == [
        "明清实录", "首页|国", "译文|四", "首页 >"]
    layers = _ByOpening(result.segments)
    assert layers["钦定礼仪义疏"] == "OTHER" and layers["特牲饋食禮第十五之一"] == "OTHER"
    assert layers["謂諸侯之士祭祖禰"] == "ZHU" and layers["祭法云適士二廟"] == "SHU"
    assert layers["孔氏穎達曰"] == "OTHER" and layers["祭無問一廟二廟"] == "SHU"  # 存疑: 賈's words
    assert not [s for s in result.segments if s.layer == "JING"]
    assert DocumentProcessor().process({"text": TESHENG_SITE, "meta": {"source": "gxds.txt"}})["actions"] == []


def test_a_site_that_indents_every_paragraph_is_not_taken_for_kanripo_s_lowered_blocks():
    """The first line of each page is at the margin (the page begins inside a block): the reader had
    taken the pages for Kanripo's view, with its blocks set lower, and read every 經 piece after a
    block as that block's next line (OTHER; 覲禮's page gave no tuple)."""
    jinli = _ByOpening(segment_layers(JINLI_PAGE).segments)
    assert jinli["天子使大夫戒曰某日"] == "JING" and jinli["侯氏再拜稽首"] == "JING"
    assert jinli["诸侯前朝皆受舍于朝"] == "JING" and jinli["侯氏裨冕释币于祢"] == "JING"
    assert jinli["今文帅作率"] == "ZHU" and jinli["右受舍于朝"] == "OTHER"
    tesheng = _ByOpening(segment_layers(TESHENG_PAGE).segments)
    assert tesheng["赞者错俎加匕"] == "JING" and tesheng["祝迎尸于门外"] == "JING"
    assert tesheng["尸即席坐主人拜妥尸"] == "JING" and tesheng["特牲馈食礼第十五之二"] == "OTHER"
    assert tesheng["之耳其或有拜妥尸"] == "OTHER"  # a line a block's paragraph was broken into
    out = DocumentProcessor().process({"text": JINLI_PAGE, "meta": {"source": "yishu67.txt"}})
    assert {(a["actor"], a["verb"]) for a in out["actions"]} >= {("侯氏", "拜"), ("侯氏", "釋")}
